public enum TouchLayoutPlaceholder {}
