enum PinholeBenchPlaceholder {}
