#!/usr/bin/env python3
"""Exports scikit-learn's 8x8 digits (1,797 images, 10 classes) for
examples/train_softmax_regression.rs, once:

    pip install scikit-learn && python scripts/export_digits.py

Writes examples/data/digits_images.npy (u8 [1797, 64], pixel values 0..16)
and examples/data/digits_labels.npy (u8 [1797]), in scikit-learn's order.
"""

import os

import numpy as np
from sklearn.datasets import load_digits

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "data")
os.makedirs(out, exist_ok=True)
d = load_digits()
np.save(os.path.join(out, "digits_images.npy"), d.data.astype(np.uint8))
np.save(os.path.join(out, "digits_labels.npy"), d.target.astype(np.uint8))
print(d.data.shape, d.target.shape)
