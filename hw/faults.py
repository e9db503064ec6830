"""The one-line messages for the faults a maker meets. firmware_docs/troubleshooting.md quotes these exactly,
and a test holds the two together."""

OLED_NOT_FOUND = ("no OLED answered at I2C address {address} on /dev/i2c-{port}: check the SDA/SCL wiring and power, "
                  "run 'i2cdetect -y {port}', and set [display] address if it shows another address")
I2C_PERMISSION = ("permission denied on /dev/i2c-{port}: add the user to the i2c group "
                  "('sudo usermod -aG i2c $USER', then log in again) or run the installer")
I2C_BUS_MISSING = ("/dev/i2c-{port} does not exist: enable I2C with 'sudo raspi-config nonint do_i2c 0' "
                   "(or dtparam=i2c_arm=on in /boot/firmware/config.txt) and reboot")
ROLLER_NOT_SEEN = ("no dice roller found ({where}): plug it in, check 'ls /dev/serial/by-id/', "
                   "and set [roller] port if it has another name")
ROLLER_PERMISSION = ("permission denied on {port}: add the user to the dialout group or install the udev rule "
                     "systemd/99-companion-roller.rules")
WRONG_DRIVER = ("the display shows garbage or is shifted by two columns: set [display] driver = \"sh1106\" "
                "for 1.3-inch modules, \"ssd1306\" for 0.96-inch ones")
