import TouchControl

// The client on its own; the installed `touchctl` is the one binary `touchd`, which runs this same
// command when it is invoked under this name.
Touchctl.main()
