"""The one TOML config file: ``load`` reads and checks it (every key optional, one-line errors), ``write`` saves
settings changed on the device back into it keeping the user's comments. Imports only ``companion.errors``.
"""
