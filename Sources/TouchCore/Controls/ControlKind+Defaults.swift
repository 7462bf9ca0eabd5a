extension ControlKind {
    /// A `UISwitch` as it starts: off.
    public static let defaultToggle = ControlKind.toggle(isOn: false)
    /// A `UISlider` as it starts: the range 0 to 1, at 0.
    public static let defaultSlider = ControlKind.slider(minimum: 0, maximum: 1, value: 0)

    /// One control of every kind, each as it starts: what a layout's control starts from before
    /// its own keys change it.
    public static let defaults: [ControlKind] = [.button, defaultToggle, defaultSlider]
}
