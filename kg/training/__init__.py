"""Training the recognisers that extraction ships (``kg train``): ``fast``, spaCy's ``ner`` on
SciERC's training split (``kg.training.fast``), and ``accurate``, a fine-tuned transformer
exported to ONNX (``kg.training.accurate``, the ``train-accurate`` extra). Extraction only reads
what these write (``kg/extract/models``); nothing in ``kg.extract`` imports training.
"""
