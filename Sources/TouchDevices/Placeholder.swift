public enum TouchDevicesPlaceholder {}
