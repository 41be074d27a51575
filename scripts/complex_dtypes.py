"""Complex element types for the corpus tools.

gen.py maps numpy dtypes to XLA's type names and knows no complex type; the case
modules that return complex values call `register()` to add c64/c128 to every
loaded copy of that table (the gen module, or __main__ when gen.py is the script).
"""
import sys

import numpy as np


def register():
    if "gen" not in sys.modules:
        # compare.py imports gen only later, per case: import it now to teach it.
        try:
            import gen  # noqa: F401
        except ImportError:
            pass
    for mod in (sys.modules.get("gen"), sys.modules.get("__main__")):
        names = getattr(mod, "DTYPE_NAMES", None)
        if isinstance(names, dict):
            names.setdefault(np.dtype(np.complex64), "c64")
            names.setdefault(np.dtype(np.complex128), "c128")
