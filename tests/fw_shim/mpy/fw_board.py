# Pin levels inside MicroPython's interpreter, shared by the `machine` stand-in and the Node runner: inputs the test
# sets (pin id -> 0/1; unset inputs read their pull level), outputs the firmware drives, and each output's rising
# edges (the LED's blinks).
inputs = {}
outputs = {}
rising = {}
