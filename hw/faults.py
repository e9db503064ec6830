"""The one-line messages for the faults a maker meets. firmware_docs/troubleshooting.md quotes these exactly,
and a test holds the two together."""

OLED_NOT_FOUND = ("no OLED answered at I2C address {address} on /dev/i2c-{port}: check the SDA/SCL wiring and power, "
                  "run 'sudo i2cdetect -y {port}', and set [display] address if it shows another address")
I2C_PERMISSION = ("permission denied on /dev/i2c-{port}: add the user to the i2c group "
                  "('sudo usermod -aG i2c $USER', then log in again) or run the installer")
I2C_BUS_MISSING = ("/dev/i2c-{port} does not exist: enable I2C with 'sudo raspi-config nonint do_i2c 0' "
                   "(or dtparam=i2c_arm=on in /boot/firmware/config.txt) and reboot")
ROLLER_NOT_SEEN = ("no dice roller found ({where}): plug it in, check 'ls /dev/serial/by-id/', "
                   "and set [roller] port if it has another name")
ROLLER_PERMISSION = ("permission denied on {port}: add the user to the dialout group or install the udev rule "
                     "/etc/udev/rules.d/99-companion-roller.rules (systemd/install.sh does)")
WRONG_DRIVER = ("the display shows garbage or is shifted by two columns: set [display] driver = \"sh1106\" "
                "for 1.3-inch modules, \"ssd1306\" for 0.96-inch ones")
NO_GPIO = ("cannot use the GPIO pins ({detail}): on Raspberry Pi OS install lgpio "
           "('sudo apt install python3-lgpio', or 'pip install lgpio' in the venv), or run 'companion sim'")
GPIO_BUSY = ("{where}: GPIO busy: a dtoverlay in /boot/firmware/config.txt or another program holds the pin; "
             "see it with 'pinctrl get PIN', then free it or choose another pin")
GPIO_PERMISSION = "permission denied on /dev/{chip}: add the user to the gpio group"
NO_GPIOCHIP = ("no /dev/gpiochip*: this is not a Raspberry Pi, or the kernel lacks GPIO; "
               "'companion sim' runs without it")
ROLLER_SILENT = ("{port} is there but no roller answered in {wait} s: check it runs the companion firmware "
                 "(its guide: /opt/companion/docs/roller/README.md on the box, firmware_docs/roller/README.md in the "
                 "project)")
