/// Pictures of a layout and its touches.
public enum TouchRender {}
