"""Word lists the rules use: typed head nouns, known names, the domain taxonomy.

Hand-made for this project (no third-party list is copied here); the domain
taxonomy is documented in the README.
"""

from __future__ import annotations

CONCEPT_TYPES = ("Method", "Task", "Dataset", "Metric", "Domain")

# The head noun of a noun phrase types it: "a GRU decoder" is a Method.
HEAD_TYPES: dict[str, str] = {
    **dict.fromkeys(
        "model network method algorithm approach framework architecture transformer encoder decoder "
        "autoencoder optimizer estimator classifier regressor policy technique mechanism procedure "
        "scheme solver pipeline module layer objective loss regularizer regularization kernel sampler "
        "embedding attention backbone baseline heuristic agent".split(), "Method"),
    **dict.fromkeys(
        "task problem classification detection segmentation recognition prediction generation "
        "translation forecasting summarization parsing tagging retrieval reasoning planning "
        "localization reconstruction captioning answering completion synthesis imputation "
        "clustering ranking recommendation navigation manipulation decoding".split(), "Task"),
    **dict.fromkeys("dataset benchmark corpus suite testbed leaderboard".split(), "Dataset"),
    **dict.fromkeys(
        "accuracy precision recall f1 auc auroc perplexity bleu rouge meteor cider mse rmse mae "
        "fid psnr ssim regret throughput latency".split(), "Metric"),
}
# Multi-word heads that decide the type of the whole phrase.
PHRASE_HEADS: dict[str, str] = {
    "error rate": "Metric", "success rate": "Metric", "f1 score": "Metric", "exact match": "Metric",
    "mean squared error": "Metric", "word error rate": "Metric", "data set": "Dataset",
    "question answering": "Task", "language modeling": "Task", "language modelling": "Task",
}

# Names known to be of one type (matched case-insensitively as whole phrases).
KNOWN_NAMES: dict[str, tuple[str, ...]] = {
    "Dataset": (
        "ImageNet", "CIFAR-10", "CIFAR-100", "MNIST", "Fashion-MNIST", "COCO", "MS COCO", "Pascal VOC",
        "SQuAD", "GLUE", "SuperGLUE", "MMLU", "GSM8K", "HumanEval", "WikiText-103", "Penn Treebank",
        "LibriSpeech", "Common Crawl", "The Pile", "OpenWebText", "ShapeNet", "KITTI", "Cityscapes",
        "ADE20K", "CelebA", "LSUN", "Atari", "MuJoCo", "D4RL", "Natural Scenes Dataset", "UK Biobank",
        "MIMIC-III", "MIMIC-IV", "OGB", "Cora", "Citeseer", "PubMed", "WMT", "CoNLL-2003", "SNLI",
        "MultiNLI", "HotpotQA", "Natural Questions", "TriviaQA", "BIG-bench", "ARC", "HellaSwag",
    ),
    "Metric": (
        "accuracy", "top-1 accuracy", "top-5 accuracy", "F1", "F1 score", "macro F1", "micro F1",
        "precision", "recall", "AUC", "AUROC", "AUPRC", "BLEU", "ROUGE", "ROUGE-L", "METEOR", "CIDEr",
        "perplexity", "word error rate", "WER", "character error rate", "mean squared error", "MSE",
        "RMSE", "MAE", "FID", "Inception Score", "PSNR", "SSIM", "LPIPS", "IoU", "mIoU", "mAP",
        "exact match", "pass@1", "success rate", "regret", "calibration error", "ECE", "log-likelihood",
        "negative log-likelihood", "Spearman correlation", "Pearson correlation", "R2",
    ),
    "Method": (
        "Transformer", "transformers", "BERT", "RoBERTa", "GPT-2", "GPT-3", "GPT-4", "T5", "LLaMA",
        "ResNet", "ViT", "Vision Transformer", "U-Net", "LSTM", "GRU", "CNN", "RNN", "GNN", "GCN",
        "graph neural network", "convolutional neural network", "recurrent neural network",
        "diffusion model", "variational autoencoder", "VAE", "GAN", "generative adversarial network",
        "normalizing flow", "Adam", "AdamW", "SGD", "stochastic gradient descent", "dropout",
        "batch normalization", "layer normalization", "LoRA", "low-rank adaptation", "PPO", "DQN",
        "Q-learning", "RLHF", "DPO", "direct preference optimization", "contrastive learning",
        "self-supervised learning", "knowledge distillation", "fine-tuning", "in-context learning",
        "chain-of-thought", "retrieval-augmented generation", "RAG", "Gaussian process",
        "random forest", "logistic regression", "support vector machine", "SVM", "k-means",
        "principal component analysis", "PCA", "mixture of experts", "meta-learning",
        "large language model", "LLM", "language model", "neural network", "deep neural network",
        "attention mechanism", "self-attention", "Monte Carlo tree search", "MCMC",
        "variational inference", "belief propagation", "gradient descent", "backpropagation",
    ),
    "Task": (
        "image classification", "object detection", "semantic segmentation", "instance segmentation",
        "machine translation", "question answering", "text classification", "sentiment analysis",
        "named entity recognition", "speech recognition", "language modeling", "image generation",
        "text generation", "summarization", "information retrieval", "link prediction",
        "node classification", "graph classification", "anomaly detection", "time series forecasting",
        "reinforcement learning", "imitation learning", "few-shot learning", "continual learning",
        "domain adaptation", "causal inference", "representation learning", "density estimation",
        "pose estimation", "depth estimation", "visual question answering", "image captioning",
        "code generation", "mathematical reasoning", "decision making", "motion planning",
        "dependency parsing", "coreference resolution", "relation extraction", "entity linking",
    ),
}

# The domain taxonomy: domain -> phrases whose presence is evidence for it.
DOMAINS: dict[str, tuple[str, ...]] = {
    "machine learning": ("machine learning", "deep learning", "neural network", "neural networks", "supervised", "unsupervised", "training data", "generalization", "gradient descent"),
    "natural language processing": ("language model", "language models", "natural language", "text", "tokens", "translation", "LLM", "LLMs", "linguistic"),
    "computer vision": ("image", "images", "video", "visual", "pixel", "object detection", "segmentation", "vision"),
    "reinforcement learning": ("reinforcement learning", "reward", "policy", "policies", "agent", "agents", "Markov decision process"),
    "neuroscience": ("brain", "neural recordings", "neurons", "cortex", "cortical", "fMRI", "EEG", "intracortical", "neuroscience", "working memory"),
    "medicine": ("clinical", "patient", "patients", "disease", "diagnosis", "diagnostic", "medical", "health", "mortality", "hospital"),
    "biology": ("protein", "proteins", "gene", "genes", "genomic", "cell", "cells", "molecular", "biological", "DNA", "RNA"),
    "chemistry": ("molecule", "molecules", "chemical", "chemistry", "reaction", "materials"),
    "physics": ("physics", "physical", "quantum", "particle", "fluid", "PDE", "partial differential equation", "dynamics"),
    "control and robotics": ("control", "controller", "robot", "robots", "robotic", "manipulation", "locomotion", "autonomous driving"),
    "optimization": ("optimization", "convex", "gradient", "convergence", "optimizer", "stochastic optimization"),
    "theory": ("theorem", "bound", "bounds", "provably", "sample complexity", "lower bound", "upper bound", "proof"),
    "fairness and ethics": ("fairness", "fair", "bias", "privacy", "ethical", "societal", "discrimination"),
    "speech and audio": ("speech", "audio", "acoustic", "speaker", "spoken"),
    "graphs": ("graph", "graphs", "node", "nodes", "edges", "graph neural network"),
}
DOMAIN_MIN_EVIDENCE = 2  # distinct phrases needed before a domain is assigned

# Verbs that, with "we" as subject, mark what the paper itself proposes.
PROPOSE_VERBS = ("propose", "introduce", "present", "develop", "design", "devise", "build")
