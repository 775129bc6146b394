"""Learning: synthetic training corpus, datasets, fine-tuning and evaluation.

Kept free of imports so that ``import deid_desktop.core.learn.synth`` does not pull in torch.
"""
