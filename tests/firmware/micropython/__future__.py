# What micropython-lib's __future__ module gives: the names exist, and mean nothing here
# (MicroPython never evaluates annotations), so chip_model.py runs in MicroPython unchanged.
annotations = True
