public enum TouchDaemonPlaceholder {}
