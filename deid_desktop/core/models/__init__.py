"""The model runtime: loading, running and saving token classifiers, below detection and
training alike.

Hugging Face loading (``hf``), model folders and manifests (``modelio``), devices, the label
scheme and foreign label maps, chunking and sub-word alignment, word shapes, the fast tokenizer
and the ONNX Runtime path. ``detect`` runs models through these modules and ``learn`` trains
and saves them through the same ones; nothing here imports either.

Kept free of imports so that ``import deid_desktop.core.models.fast_tokenizer`` does not pull
in torch.
"""
