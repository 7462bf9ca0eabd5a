public enum TouchCorePlaceholder {}
