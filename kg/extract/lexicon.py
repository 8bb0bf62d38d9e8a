"""Word lists the rules use: typed head nouns, known names, the domain taxonomy.

Hand-made for this project (no third-party list is copied here); the domain
taxonomy is documented in the README. How common a word is in general English comes
from the ``wordfreq`` package at run time (``common_english``).
"""

from __future__ import annotations

from functools import lru_cache

# The head noun of a noun phrase types it: "a GRU decoder" is a Method.
HEAD_TYPES: dict[str, str] = {
    **dict.fromkeys(
        "model network method algorithm approach framework architecture transformer encoder decoder "
        "autoencoder optimizer estimator classifier regressor policy technique mechanism procedure "
        "scheme solver pipeline module layer objective loss regularizer regularization kernel sampler "
        "embedding attention backbone baseline heuristic agent parser tagger segmenter recognizer recogniser extractor "
        "generator translator detector tracker transducer grammar".split(), "Method"),
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
# Head nouns of the things the sciences study that are no method, task, dataset or metric (an Entity):
# substances and materials, genes and their products, cells, organisms, anatomy, diseases, and
# biological processes ("tannic acid", "neuronal nicotinic acetylcholine receptors", "memory B
# cells", "IAV infection"). None heads a span of SciERC's training split.
ENTITY_HEADS = frozenset(
    # substances and materials
    "acid oxide dioxide hydroxide ion cation anion salt compound molecule metabolite polymer copolymer protein "
    "peptide enzyme receptor hormone cytokine chemokine antibody antigen gene allele chromosome plasmid mrna mirna "
    "lncrna rna dna lipid vitamin mineral metal alloy nanoparticle nanotube nanosheet nanorod nanowire nanocomposite "
    "composite crystal electrolyte solvent ligand inhibitor agonist antagonist toxin pollutant pesticide fertilizer "
    "sediment aerosol isotope isomer nucleotide amino steroid alkaloid flavonoid polysaccharide"
    # cells, organisms and anatomy
    " cell neuron macrophage lymphocyte fibroblast monocyte neutrophil platelet tissue organ organelle mitochondrion "
    "membrane bacterium virus fungus pathogen microbe microorganism parasite species genus mouse rat plant seedling "
    "microbiota microbiome bacteria viruses fungi mice genera mitochondria"
    # everyday words that name a substance, organism or body part studied as such: alone they stay an Entity
    # where other everyday words do not (kg.extract.junk.everyday_word; "water", the medium of most
    # experiments, is left out on purpose: alone it links papers that share nothing else)
    " milk blood serum urine saliva honey wine sugar starch oil fat iron copper zinc steel glass clay soil "
    "dog cat horse cow cattle pig sheep goat chicken duck fish bird insect monkey leaf root seed fruit flower "
    "liver heart lung kidney brain skin bone muscle eye breast hip arm knee spine tooth"
    # diseases and conditions
    " disease disorder syndrome infection cancer carcinoma tumor tumour inflammation injury lesion deficiency "
    "fibrosis depression stroke pain stress fatigue fever cough jaundice relapse"
    # biological processes
    " signaling signalling pathway homeostasis metabolism secretion proliferation apoptosis phosphorylation "
    "immunity mutation polymorphism".split())
# Papers of the natural sciences (a domain of NATURAL_SCIENCE_DOMAINS, none of COMPUTING_DOMAINS): there the
# recogniser, trained on computer science, reads genes, drugs and organisms as Methods and substances as
# Datasets (SciERC's "Material"); a Method, Task or Dataset span keeps its type only with a head of that type.
NATURAL_SCIENCE_DOMAINS = frozenset({"medicine", "biology", "chemistry", "neuroscience", "physics"})
COMPUTING_DOMAINS = frozenset({"machine learning", "natural language processing", "computer vision",
                               "reinforcement learning", "graphs", "speech and audio"})
LAB_METHOD_HEADS = frozenset(
    "therapy treatment surgery intervention assay test testing analysis regression synthesis microscopy spectroscopy "
    "spectrometry chromatography tomography imaging diffraction sequencing pcr blot blotting staining screening vaccination "
    "transplantation resection stimulation protocol program programme strategy design simulation calculation search "
    "measurement technique tool method methodology approach procedure model modeling modelling algorithm framework "
    "scheme device instrument criterion questionnaire scale score index test trial review meta-analysis "
    "electrophoresis cytometry immunohistochemistry hybridization transfection knockdown knockout profiling "
    "diet exercise training education counseling counselling management care rehabilitation".split())
TASK_HEADS = frozenset(
    "diagnosis diagnostic prognosis screening prevention management treatment assessment monitoring detection "
    "prediction estimation evaluation analysis identification quantification characterization characterisation "
    "classification recognition imaging modeling modelling design discovery mapping measurement control removal "
    "degradation conversion production extraction separation optimization optimisation simulation reconstruction "
    "regeneration repair delivery sensing study surveillance".split())
# Heads of measured quantities: in a paper outside computing a span with one is a Metric ("turnaround
# times", "FA values", "mRNA expression level", "mean height", "biochar yield", "FRET distances", "local
# taxon richness", "morbidity risks", "median salt intake", "health expenditures", "SARS-CoV-2 viral load"),
# whatever else it was read as.
QUANTITY_HEADS = frozenset(
    "value level ratio rate score index cost time duration threshold concentration length height width weight "
    "count frequency percentage proportion prevalence incidence density volume velocity yield age "
    "temperature depth thickness diameter distance momentum fluence richness abundance risk "
    "dose drop expectancy survival validity reliability content intensity capacity efficacy efficiency quality "
    "intake expenditure uptake load viscosity".split())
# Quantity heads that judge how well something works: a measure in the natural sciences ("clinical efficacy",
# "health-related quality of life"), a construct elsewhere ("team efficacy", "service quality").
JUDGED_QUANTITIES = frozenset("efficacy efficiency quality".split())
# Heads that name a measured number whatever the field ("FA values", "urinary analyte/creatinine ratios",
# "F1-score", "drought indices"), physical and epidemiological quantities that head no SciERC training span and
# with a word before them say what is measured ("biochar yield" in a paper of machine learning), and the statistics
# that make any quantity head one ("mean height", "relative frequency").
MEASURE_HEADS = frozenset("value ratio score proportion percentage rate index".split())
PHYSICAL_QUANTITIES = frozenset("yield temperature concentration prevalence incidence thickness diameter richness "
                                "abundance momentum fluence".split())
STATISTIC_MODIFIERS = frozenset("mean average median relative total maximum minimum peak cumulative absolute "
                                "normalized normalised".split())
# Heads of techniques and procedures: a recognised other term with one is a Method ("block randomisation",
# "general anaesthesia", "follow-up interviews", "siRNA-mediated silencing of EpCAM"), and so is a
# word ending like a procedure ("colonoscopy", "tractography", "lobectomy"; not "geography", "dichotomy"). Tests
# and statistics are what an analysis does ("statistical tests", "descriptive statistics"; of SciERC's training
# spans with either head, 2 of 5 are other terms); interpolation is a numerical one (SciERC 2 of 2 Methods). An
# examination or an experiment is done to find something out ("histological examination", "radical trapping
# experiments"; SciERC's training spans: 1 other term).
PROCEDURE_HEADS = frozenset("technique procedure protocol randomization randomisation anesthesia anaesthesia interview "
                            "questionnaire silencing knockdown resection transplantation vaccination implantation biopsy "
                            "dialysis ablation catheterization catheterisation pacing stimulation test statistics "
                            "interpolation examination experiment".split())
PROCEDURE_ENDINGS = ("scopy", "graphy", "ectomy", "otomy", "ostomy", "plasty")
NOT_PROCEDURES = frozenset("geography topography biography autobiography bibliography demography oceanography "
                           "choreography orthography dichotomy".split())
# Heads of data, samples and the people studied, whatever the field: a recognised other term with one is a
# Dataset ("IBD cohort", "tumor samples", "cirrhotic patients", "RGB/NIR images", "pharmaceutical news archive",
# "legal terminology"; of SciERC's training spans with one, 7 of 239 are other terms).
DATA_TERM_HEADS = frozenset("data dataset database databank corpus corpora treebank cohort registry biobank sample "
                            "specimen swab patient participant volunteer image archive terminology thesaurus".split())
# Words that head a method in any field: in a natural-science paper a span with one is a Method; so do what
# a diagnosis or a survey is made with ("DSM-IV criteria", "self-administered instruments").
METHOD_WORDS = frozenset("method methodology technique analysis therapy treatment surgery intervention assay "
                         "programme program regimen criterion instrument profiling".split())
DATA_HEADS = frozenset(
    "data dataset database databank cohort sample registry survey record corpus image scan biobank archive "
    "repository collection census participant patient subject volunteer population group trial study".split())

# Head nouns that decide the type whatever the recogniser said: of SciERC's training spans
# ending in each, at least 90% are of that type (at least 5 spans each; f1 and bleu 4 of 4).
DECIDING_HEADS: dict[str, str] = {
    **dict.fromkeys("accuracy precision recall f1 bleu".split(), "Metric"),
    **dict.fromkeys("recognition retrieval generation summarization extraction identification understanding".split(), "Task"),
    **dict.fromkeys("parser grammar classifier architecture filter".split(), "Method"),
    **dict.fromkeys("corpora treebank".split(), "Dataset"),
    # a pronoun is SciERC's Generic (it 86 of 87, they 14 of 14, one 9 of 9): never a concept ("harder ones")
    **dict.fromkeys("it they them this these those one".split(), "Generic"),
    # SciERC's OtherScientificTerm by the same rule (>= 90% of >= 5 training spans): an Entity
    **dict.fromkeys("relation space paraphrase variable semantics vector parameter expression surface edge attribute "
                    "motion probability form occlusion independency fluorescence".split(), "Entity"),
    **dict.fromkeys(ENTITY_HEADS, "Entity"),
    # laboratory and clinical techniques (none heads a SciERC training span): "triple-nested Alu-PCR",
    # "hormone assays", "fluorescein angiography" are Methods, whatever the recogniser read
    **dict.fromkeys("assay pcr microscopy spectroscopy spectrometry chromatography tomography angiography sequencing "
                    "blot blotting staining electrophoresis cytometry immunohistochemistry therapy surgery".split(), "Method"),
}
# Heads that name the type itself ("3D-printing method", "maximum set coverage problem", "hash-tag recommendation
# task"): of SciERC's multi-word training spans ending in each, at least 90% of those that name a concept (not
# Generic) are of that type (method 36 of 38, methods 37 of 37, algorithm 48 of 48, technique(s) 39 of 39, task 24
# of 26, tasks 16 of 17, problem 29 of 30; corpus 52 of 53, dataset 17 of 18, database 9 of 10; metric 2 of 2).
TYPE_WORDS: dict[str, str] = {**dict.fromkeys("method technique algorithm".split(), "Method"),
                              **dict.fromkeys("task problem".split(), "Task"),
                              **dict.fromkeys("corpus dataset database".split(), "Dataset"),
                              "metric": "Metric"}
# Natural languages, named alone: what a corpus is written in, never a collection of data itself (SciERC
# annotates "English", "Arabic" as Material, the recogniser reads them as Datasets).
LANGUAGES = frozenset(
    "english chinese mandarin cantonese japanese korean arabic hebrew persian farsi turkish hindi urdu bengali tamil "
    "telugu marathi punjabi thai vietnamese indonesian malay tagalog swahili amharic yoruba hausa zulu french spanish "
    "portuguese italian catalan galician romanian german dutch danish swedish norwegian icelandic finnish estonian "
    "hungarian basque greek latin russian ukrainian polish czech slovak slovene slovenian croatian serbian bulgarian "
    "lithuanian latvian irish welsh".split())
# Words a name never starts or ends with (of SciERC's 3,112 scored training spans, 3 do).
EDGE_WORDS = frozenset("and or of the a an in for with to on by from at that which is are was were as via versus vs vs.".split())
# A phrase's head is its last word before one of these: "accuracy on ImageNet".
PREPOSITIONS = frozenset("of on for in with to by from at via over under".split())
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

# One-token known names (a capital, no space or hyphen: "LoRA", "GLUE") decide the type of a phrase
# they head: "vanilla LoRA".
NAMED_HEADS: dict[str, str] = {name: type_ for type_, names in KNOWN_NAMES.items() for name in names
                               if not {" ", "-"} & set(name) and name != name.lower()}

# The domain taxonomy: domain -> phrases whose presence is evidence for it. A domain needs
# evidence of weight DOMAIN_MIN_EVIDENCE: each distinct phrase weighs 1, a strong one
# (DOMAIN_STRONG: the field's own name or an unambiguous term) 2.
DOMAINS: dict[str, tuple[str, ...]] = {
    "machine learning": ("neural network", "neural networks", "supervised", "unsupervised", "training data", "generalization",
                         "gradient descent", "classifier", "learning algorithm", "representation learning", "embeddings"),
    "natural language processing": ("language model", "language models", "natural language", "text", "tokens", "translation",
                                    "LLM", "LLMs", "linguistic", "corpus", "parsing"),
    "computer vision": ("image", "images", "video", "videos", "visual", "pixel", "pixels", "object detection", "segmentation",
                        "vision", "camera", "3D"),
    "reinforcement learning": ("reward", "rewards", "policy", "policies", "agent", "agents", "Markov decision process", "MDP"),
    "neuroscience": ("brain", "neural recordings", "neurons", "cortex", "cortical", "fMRI", "EEG", "intracortical",
                     "working memory", "spiking", "synaptic"),
    "medicine": ("clinical", "patient", "patients", "disease", "diagnosis", "diagnostic", "medical", "health", "mortality",
                 "hospital", "therapy", "treatment", "surgery", "surgical", "cancer", "tumor"),
    "biology": ("protein", "proteins", "gene", "genes", "genomic", "cell", "cells", "molecular", "biological", "DNA", "RNA",
                "species", "enzyme", "plant", "plants", "soil", "bacteria", "bacterial", "microbial", "ecosystem",
                "ecosystems", "metabolism", "tissue", "mice", "rats"),
    "chemistry": ("molecule", "molecules", "chemical", "reaction", "reactions", "materials", "catalyst", "synthesis of",
                  "acid", "acids", "oxidation", "catalytic", "compound", "compounds", "polymer", "polymers", "solvent",
                  "adsorption", "ions", "nanoparticles", "electrochemical"),
    "physics": ("physical", "quantum", "particle", "fluid", "PDE", "partial differential equation", "dynamics", "thermodynamic",
                "magnetic", "optical", "laser", "electron", "electrons", "thermal", "photon", "photons", "plasma"),
    "control and robotics": ("control", "controller", "robot", "robots", "robotic", "manipulation", "locomotion",
                             "autonomous driving", "trajectory"),
    "optimization": ("convex", "gradient", "convergence", "optimizer", "stochastic optimization", "objective function", "minimax"),
    "theory": ("theorem", "bound", "bounds", "provably", "sample complexity", "lower bound", "upper bound", "proof",
               "complexity"),
    "fairness and ethics": ("fair", "bias", "privacy", "ethical", "societal", "discrimination"),
    "speech and audio": ("speech", "audio", "acoustic", "speaker", "spoken"),
    "graphs": ("graph", "graphs", "node", "nodes", "edges"),
}
DOMAIN_STRONG: dict[str, tuple[str, ...]] = {
    "machine learning": ("machine learning", "deep learning"),
    "natural language processing": ("natural language processing", "NLP", "computational linguistics",
                                    "machine translation", "large language models"),
    "computer vision": ("computer vision", "image classification", "object recognition"),
    "reinforcement learning": ("reinforcement learning",),
    "neuroscience": ("neuroscience", "neural recordings", "brain-computer interface", "brain-computer interfaces"),
    "medicine": ("clinical trial", "medicine", "healthcare"),
    "biology": ("biology", "genomics", "protein structure"),
    "chemistry": ("chemistry", "molecular property"),
    "physics": ("physics", "physical systems"),
    "control and robotics": ("robotics", "control theory", "optimal control"),
    "optimization": ("optimization",),
    "theory": ("sample complexity", "regret bound", "regret bounds"),
    "fairness and ethics": ("fairness", "algorithmic fairness"),
    "speech and audio": ("speech recognition", "audio"),
    "graphs": ("graph neural network", "graph neural networks", "knowledge graph"),
}
DOMAIN_MIN_EVIDENCE = 2  # distinct phrases needed before a domain is assigned
# Words that hint at a field of computing but never assign it (``kg_domain_hints`` only): a paper of no domain
# that writes one is not read as one outside computing, and its spans keep the recogniser's types.
DOMAIN_HINTS: dict[str, tuple[str, ...]] = {
    "natural language processing": ("sentence", "sentences", "syntactic", "syntax", "grammar", "grammars", "parser",
                                    "parsers", "lexical", "discourse", "dialogue", "dialog", "semantic", "semantics"),
    "machine learning": ("algorithm", "algorithms", "automatically"),
}

# Verbs that, with "we" (or "this paper") as subject, mark what the paper itself proposes.
PROPOSE_VERBS = ("propose", "introduce", "present", "develop", "design", "devise", "build", "describe", "offer", "contribute",
                 "call")  # "a generative model of parse trees, which we call PCFG-LA"
PROPOSE_FORMS = frozenset(f for v in PROPOSE_VERBS for f in (
    v, v + "s", v + ("d" if v.endswith("e") else "ed"), (v[:-1] if v.endswith("e") else v) + "ing")) | {"built"}
# What a proposed method is made of or built on is used, not proposed ("a hybrid model combining wavelet
# decomposition and SVR", "an approach employing n-gram models", "a model based on BERT").
COMPONENT_CUES = frozenset("using with based via combining employing integrating incorporating utilizing utilising "
                           "exploiting leveraging comprising consisting involving".split())
# "We propose X for Y": the object of a propose verb ends before one of these words.
OBJECT_STOPS = frozenset("for to that which where whereby who in on by through from "
                         "than as while when because so , ; : . ! ?".split()) | COMPONENT_CUES
# The proposal is of something made from X, which the paper uses ("a new variant of AdaBoost", "an extension of
# animation schema"), or a report on X, not X ("an overview of model-based control", "the theory behind ARIMA").
DERIVED_FROM = frozenset("variant variants extension extensions version versions modification modifications "
                         "generalization generalisation adaptation improvement improvements enhancement refinement".split())
REPORT_NOUNS = frozenset("overview review survey summary results comparison theory description discussion tutorial".split())
# Words that, before "work", "paper" or "study", make a proposal an earlier one ("In recent work, we introduced X").
EARLIER = frozenset("recent previous earlier prior past".split())
# Words that give a proposal its name ("a model called BERT", "an algorithm, dubbed as SRDA,").
NAMING_WORDS = frozenset("called named dubbed termed coined".split())
# Adverbs allowed between "we" and its verb ("we also propose", "we then introduce").
PROPOSE_ADVERBS = frozenset("also further then here first therefore thus now additionally instead finally newly".split())
# Subjects that speak for the paper ("this paper presents X").
SELF_NOUNS = frozenset("paper work article study letter thesis report note contribution".split())
# Words that mark a method as the paper's own when they stand right before it.
OWN_MARKERS = frozenset("novel new proposed".split())
# ... when one of these stands before them ("a novel X", "our proposed X"; not "their new X").
OWN_DETERMINERS = frozenset("a an the our this these".split())
# Adverbs that make a proposal someone else's ("the recently proposed X", "X was previously proposed").
PRIOR_ADVERBS = frozenset("previously recently originally earlier already widely commonly traditionally first".split())
# Acronyms whose long forms are known: a paper that writes only one of them still joins the other.
KNOWN_ACRONYMS: dict[str, tuple[str, str]] = {
    "LoRA": ("low-rank adaptation", "Method"), "LLM": ("large language model", "Method"),
    "CNN": ("convolutional neural network", "Method"), "RNN": ("recurrent neural network", "Method"),
    "GNN": ("graph neural network", "Method"), "GCN": ("graph convolutional network", "Method"),
    "GAN": ("generative adversarial network", "Method"), "VAE": ("variational autoencoder", "Method"),
    "LSTM": ("long short-term memory", "Method"), "SGD": ("stochastic gradient descent", "Method"),
    "RAG": ("retrieval-augmented generation", "Method"), "DPO": ("direct preference optimization", "Method"),
    "RLHF": ("reinforcement learning from human feedback", "Method"), "SVM": ("support vector machine", "Method"),
    "PCA": ("principal component analysis", "Method"), "MCTS": ("Monte Carlo tree search", "Method"),
    "MoE": ("mixture of experts", "Method"), "ViT": ("Vision Transformer", "Method"),
    "CoT": ("chain-of-thought", "Method"), "ICL": ("in-context learning", "Method"),
    "NER": ("named entity recognition", "Task"), "MT": ("machine translation", "Task"),
    "QA": ("question answering", "Task"), "VQA": ("visual question answering", "Task"),
    "ASR": ("automatic speech recognition", "Task"), "RL": ("reinforcement learning", "Task"),
    "MSE": ("mean squared error", "Metric"), "WER": ("word error rate", "Metric"),
    "NLL": ("negative log-likelihood", "Metric"),
}

# --- What is no concept (kg.extract.junk) ---
# Headings of structured abstracts ("CONCLUSIONS Fertility ...", "Background: ..."): never part of a name.
SECTION_HEADINGS = frozenset(
    "abstract background backgrounds introduction context objective objectives aim aims purpose purposes method methods "
    "methodology design setting settings participants results findings conclusion conclusions interpretation significance "
    "summary discussion importance rationale highlights keywords hypothesis hypotheses measurements approach".split())
# Headings of systematic reviews (PRISMA, Cochrane), written title-case at a sentence's start: "Data Extraction For
# each included study, ..."; elsewhere "data extraction" is a task.
HEADING_PHRASES = frozenset({"data extraction", "data sources", "data synthesis", "data collection", "study selection",
                             "eligibility criteria", "selection criteria", "search strategy", "search methods",
                             "review methods", "main outcome measures", "main outcomes and measures"})
# Prepositions besides PREPOSITIONS, which take an object: before a span they make it one, at its end it was cut
# before its object.
OBJECT_PREPOSITIONS = frozenset("between among within across through into upon toward towards against without during after "
                                "before".split())
# Words that end no name ("Causal relationships between", "adjuvant therapy prior" of "... prior to surgery").
TRAILING_WORDS = OBJECT_PREPOSITIONS | frozenset("amongst onto prior beyond despite regarding concerning".split())
# Words that name no concept on their own ("learning", "the proposed method", "our approach").
GENERIC_WORDS = frozenset(
    "approach method methodology model framework system technique algorithm procedure scheme strategy mechanism tool "
    "component module architecture data dataset result performance learning inference understanding training testing "
    "analysis evaluation experiment study task problem application solution process information knowledge quality "
    "efficiency effectiveness measure metric feature representation structure function parameter variable factor "
    "outcome effect level value case set type work research paper issue way field area concept idea theory property "
    "technology baseline variant extension version improvement implementation finding".split())
# Modifiers that leave a generic word generic ("the proposed method", "existing approaches").
GENERIC_MODIFIERS = frozenset(
    "a an the our their its this these that those each every such other same novel new proposed simple standard "
    "existing various several different many multiple recent current previous prior traditional conventional typical "
    "general overall specific particular given original main key basic common final full whole better improved "
    "effective efficient first second two three both all more most "
    # vague judgements and sizes ("alternative approach", "computational methods", "commercial systems")
    "alternative computational commercial systemic definitive limited appropriate suitable relevant potential "
    "possible certain small large larger smaller".split())
# Units of measurement: a number followed by one is a quantity, never a concept ("0-50 cm soils", "5 %").
UNITS = frozenset(
    "% ‰ ° °c °f mg g kg µg μg ng pg ml l µl μl dl nl mm cm m km nm µm μm pm s ms µs μs ns min h hr hrs d wk wks yr yrs "
    "second seconds minute minutes hour hours day days week weeks month months year years "
    "hz khz mhz ghz w kw mw gw kwh mwh v mv kv ma pa kpa mpa gpa atm bar mbar psi j kj mj ev kev mev gev mol mmol µmol "
    "μmol nmol mm µm μm nm da kda mda bp kb mb ppm ppb ppt cfu iu gy sv db dba lux rpm wt% vol% mol% mg/kg mg/l mg/ml "
    "g/l µg/ml μg/ml ng/ml ml/min l/min".split())
# Units that are no word or acronym of anything else, so that alone they are a unit ("°C", "mL", "kDa").
PLAIN_UNITS = frozenset("CFU °C °F mL µL μL mg kg µg μg ng Hz kHz MHz GHz nm µm μm mm cm km mM µM μM nM kDa ppm ppb wt% mol-1 "
                        "cm-1 cm-2 cm-3 L-1 mL-1 g-1 kg-1 s-1 h-1".split())
# Countries, continents, regions and US states: a paper's setting, never its concept ("in the United States").
# Names that are also common words or names of other things (Turkey, Chad, Guinea, Georgia, Jordan, US) are left out.
PLACES = frozenset("""Afghanistan Albania Algeria Andorra Angola Argentina Armenia Australia Austria Azerbaijan Bahamas Bahrain
Bangladesh Barbados Belarus Belgium Belize Benin Bhutan Bolivia Bosnia Botswana Brazil Brunei Bulgaria Burundi Cambodia
Cameroon Canada Chile China Colombia Congo Croatia Cuba Cyprus Czechia Denmark Djibouti Ecuador Egypt Eritrea Estonia
Eswatini Ethiopia Fiji Finland France Gabon Gambia Germany Ghana Greece Grenada Guatemala Guyana Haiti Honduras Hungary
Iceland India Indonesia Iran Iraq Ireland Israel Italy Jamaica Japan Kazakhstan Kenya Kiribati Korea Kosovo Kuwait Kyrgyzstan
Laos Latvia Lebanon Lesotho Liberia Libya Liechtenstein Lithuania Luxembourg Madagascar Malawi Malaysia Maldives Mali Malta
Mauritania Mauritius Mexico Micronesia Moldova Monaco Mongolia Montenegro Morocco Mozambique Myanmar Namibia Nauru Nepal
Netherlands Nicaragua Nigeria Norway Oman Pakistan Palau Palestine Panama Paraguay Peru Philippines Poland Portugal Qatar
Romania Russia Rwanda Samoa Senegal Serbia Seychelles Singapore Slovakia Slovenia Somalia Spain Sudan Suriname Sweden
Switzerland Syria Taiwan Tajikistan Tanzania Thailand Togo Tonga Tunisia Turkmenistan Tuvalu Uganda Ukraine Uruguay
Uzbekistan Vanuatu Venezuela Vietnam Yemen Zambia Zimbabwe Africa Asia Europe Oceania Antarctica America Americas
Scandinavia Balkans Caribbean USA U.S. U.S.A. UK U.K. EU Alabama Alaska Arizona Arkansas California Colorado Connecticut
Delaware Florida Hawaii Idaho Illinois Indiana Iowa Kansas Kentucky Louisiana Maine Maryland Massachusetts Michigan
Minnesota Mississippi Missouri Montana Nebraska Nevada Ohio Oklahoma Oregon Pennsylvania Tennessee Texas Utah Vermont
Virginia Wisconsin Wyoming Atlantic Pacific Arctic Antarctic""".split()) | frozenset("""United States|United Kingdom|United Arab Emirates|New Zealand|
South Africa|North America|South America|Latin America|Central America|Middle East|East Asia|South Asia|Southeast Asia|
Sub-Saharan Africa|West Africa|East Africa|European Union|Saudi Arabia|Sri Lanka|Hong Kong|Costa Rica|El Salvador|
Ivory Coast|North Korea|South Korea|Papua New Guinea|Dominican Republic|Puerto Rico|New York|New Jersey|New Mexico|
New Hampshire|North Carolina|South Carolina|North Dakota|South Dakota|West Virginia|Rhode Island""".replace("\n", "").split("|"))
# Compass words before a place ("south China", "Western Europe").
COMPASS = frozenset("north south east west northern southern eastern western central northeast northwest southeast "
                    "southwest northeastern northwestern southeastern southwestern".split())
# Function words of other languages than English: a span of them and words no English list knows is
# a phrase of an abstract's second language ("ensino nas escolas médicas", "sus necesidades").
FOREIGN_FUNCTION_WORDS = frozenset(
    "de da do das dos nas nos na no em para com por uma um e o os as ao à del los las sus su el la y con en un una "
    "les des du le au aux et und der die das den dem für mit von zu zur zum ist".split())
# The last word of a place's name after a capitalised word ("Guizhou province", "Orange County"), also of a
# geographic feature's ("Death Valley", "Korean peninsula", "South China Sea").
PLACE_HEADS = frozenset("province provinces county counties prefecture municipality district city ocean sea valley "
                        "river lake mountains peninsula basin plateau desert gulf bay strait archipelago coast".split())
# Heads of institutions, places too ("neurological rehabilitation centre", "Peking University"); not "center"
# ("data center" is a concept).
INSTITUTION_HEADS = frozenset("centre centres hospital hospitals clinic clinics institute institutes university "
                              "universities ministry ministries".split())
# Heads that name no concept with judging adjectives alone ("functional properties", "potent anti-tumor effects",
# "biological consequences"); a noun before them names what they are of ("antioxidant properties").
VAGUE_HEADS = frozenset("property effect profile pattern outcome consequence role change difference aspect "
                        "characteristic abnormality vulnerability implication feature factor condition manner fashion "
                        "way extent information context situation experience phenomenon increase "
                        # what research talk calls its objects ("clinical investigations", "theoretical estimates",
                        # "semantic concepts", "economic issues"): "least squares estimate" says which
                        "investigation estimate concept issue".split())
# Heads that name nothing with judging words alone ("classification progress", "formation mechanism",
# "generalized response", "clinical symptoms"), while a word that says what kind names a concept
# ("immune response", "depressive symptoms", "attention mechanism").
WEAK_HEADS = frozenset("mechanism tool application progress pressure response event risk symptom detail "
                       "attribute assessment interaction period variability resolution sign trend reality growth drift "
                       "convergence phase window description "
                       # a study's arm after an action or judging word ("treatment group"; "age group" says which)
                       "group".split())
# Heads that name what belongs to something else (its outcomes, causes, role, significance, landscape, details, the
# scenario it is seen in): after plain words only they leave it unnamed ("adverse health outcomes", "genomic
# landscape", "missing details"), whatever kind of word the modifiers are. Not "scale": also a questionnaire.
RELATIONAL_HEADS = frozenset("outcome characteristic characteristics consequence implication significance role landscape "
                             "aspect scenario detail conclusion cause".split())
# The second word of a Latin phrase after its first ("in situ", "ex vivo", "de novo", "a priori"): a span that
# starts with it is cut.
LATIN_PHRASES = {"in": frozenset("situ vivo vitro silico utero ovo vacuo".split()), "ex": frozenset("situ vivo vitro".split()),
                 "de": frozenset({"novo"}), "a": frozenset("priori posteriori".split())}
# Ways of doing and problems: after an everyday action alone they name nothing ("implementation techniques",
# "disambiguation process", "computation problem").
DOING_HEADS = frozenset("approach method methodology technique procedure process strategy scheme problem task".split())
# Degree words that make a judging compound, alone no concept ("high-quality", "low-cost"; not "fine-tuning").
DEGREE_WORDS = frozenset("high low higher lower good poor large small well".split())
# Degree and judging adjectives: they say how much or how good, not what kind ("high", "clinical").
JUDGING_ADJECTIVES = frozenset("high low higher lower highest lowest intermediate fine clinical severe mild moderate "
                               "strong weak poor good positive negative normal abnormal significant major minor important "
                               "great greater broad narrow short long early late rapid slow fast faster dramatic overall "
                               # how good or how made, not what kind ("hybrid model", "noisy data", "innovative strategies")
                               "hybrid noisy innovative similar practical promising arbitrary informative compact unique "
                               "robust accurate reliable powerful sophisticated successful useful interesting valuable "
                               "crucial essential reasonable satisfactory excellent superior emerging "
                               # real or not, standing alone or central: no kind ("real data", "standalone system", "core modules")
                               "real actual standalone core".split())
# People and groups of them: alone a study's population, no concept that links papers ("women", "participants").
PEOPLE = frozenset("person people individual man men woman women child children adult adolescent infant patient "
                   "participant subject volunteer student worker employee member resident respondent user sufferer "
                   "survivor".split())
# A person's attributes, read as a study's variables: alone no concept ("age", "sex", "gender").
PERSON_ATTRIBUTES = frozenset("age sex gender ethnicity race".split())
# Words that count or order what follows "of", naming nothing themselves ("cascade of cellular responses",
# "series of events").
QUANTIFIER_HEADS = frozenset("cascade series variety range number majority minority kind sort lot plethora host "
                             "multitude handful couple portion level lack content absence amount".split())
# Organisations: a title-case name ending in one is no concept ("Heart Rhythm Society"; "civil society" is one).
ORGANISATION_HEADS = frozenset("Society Association Organization Organisation Foundation Council Committee Agency "
                               "Consortium Federation Academy College Board Group Institute Ministry".split())
NUMBER_WORDS = frozenset("one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
                         "seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred "
                         "thousand million".split())
# A label and its number is no concept ("Grade 2", "Stage III", "Phase 3"; "Type 2 diabetes" is).
NUMBERED_LABELS = frozenset("grade stage phase type class level group step day week month year cycle arm wave round "
                            "period session visit cohort experiment study trial figure table section chapter".split())
# Names of library pages, publication types and publishers' lines: no concept ("LibGuides", "Book Review").
NON_CONCEPTS = frozenset(
    "libguides|book review|book reviews|editorial|erratum|corrigendum|retraction|commentary|obituary|front matter|"
    "back matter|table of contents|letter to the editor|call for papers|in memoriam|research guide|research guides|"
    "subject guide|subject guides|home|home page|homepage|website|citations|articles|copyright|all rights reserved|"
    "vice versa|et al|others".split("|"))
# Tokens that mark a publisher's or copyright line inside a span ("© 2002 Wiley-Liss, Inc").
PUBLISHER_TOKENS = frozenset("© (c) inc inc. ltd ltd. llc gmbh copyright".split())
PUBLISHER_NAMES = frozenset("Press Publishers Publishing Books Elsevier Wiley Springer".split())
# A sentence starting with one of these is a publisher's, funder's or index line: nothing in it is a concept.
BOILERPLATE_STARTS = ("©", "(c)", "copyright", "funding", "trial registration", "published by",
                      "this article is protected", "all rights reserved", "conflict of interest", "conflicts of interest",
                      "disclosure", "level of evidence", "supplementary", "this is an open access article")
# Words after which a verb's base form follows ("can drive", "to suppress", "and restores").
MODALS = frozenset("can could may might will would shall should must cannot".split())
VERB_CUES = MODALS | frozenset("to that which who and or but , ;".split())
# Words after which a verb-like word modifies a noun ("the parse tree", "over parse trees", "more quit attempts").
MODIFIER_CUES = frozenset("a an the this these that those its their our his her each every any some no of in on for with "
                          "from by at over under between into via more less most fewer".split()) - {"that"}
# Units written in capitals, and one-letter units (after a number and a space: "24 h", "5 L").
UPPER_UNITS = frozenset("CFU IU MJ GJ MW GW TW KW".split())
LETTER_UNITS = frozenset("h d s g m l L K".split())
# Words of degree or change before a measured quantity: they say which way it went, not what it is ("higher vitamin
# D levels", "lower wall temperatures", "reduced hippocampal volume" name vitamin D levels, wall temperature, ...).
CHANGE_WORDS = frozenset("high low higher lower greater smaller larger fewer increased decreased reduced elevated".split())
# Heads of what is measured: quantities, measures, and errors or amounts ("low error", "higher doses").
AMOUNT_HEADS = QUANTITY_HEADS | MEASURE_HEADS | PHYSICAL_QUANTITIES | frozenset(
    "error accuracy precision amount".split())
# Participles of what a study does to its objects: in front of a span they say no kind ("identified genetic
# networks", "analyzed genome-wide genotypes"; "observed data", "selected features" are left alone).
RESEARCH_PARTICIPLES = frozenset("identified reported obtained studied investigated analyzed analysed assessed examined "
                                 "tested evaluated described".split())
# Determiners and quantifiers: a word spelt like a noun before one is a verb ("articles meeting all of ...").
DETERMINERS = frozenset("a an the this these those its their his her our all both each every any some no".split())
# Words a verb is followed by rather than a plural noun ("g-C3N4 exhibits excellent ...").
AFTER_VERB = frozenset("a an the its their his her our this these those excellent superior high higher good better "
                       "remarkable significant strong stronger".split())

# A word read this often in general English (wordfreq's Zipf scale: 4.5 = about thirty times per million
# words; "attention" 5.1, "expression" 4.6, "generation" 4.8 against "infection" 4.3, "apoptosis" 3.0)
# has senses in every field: alone it names a concept where a paper's extraction reads it, and the
# vocabulary pass does not link it across papers (issue 10: the "attention" of one machine-learning
# paper was linked in 38 abstracts that pay attention to something). At 4.0 ("infection",
# "detection" too) citation-related pairs of the OpenAlex sample lost a sixth of what they share.
COMMON_ZIPF = 4.5


@lru_cache(maxsize=1 << 16)
def common_english(word: str) -> bool:
    """A word of general English at least as common as ``COMMON_ZIPF`` (case folded).

    >>> [common_english(w) for w in ("attention", "Expression", "infection", "apoptosis", "clustering")]
    [True, True, False, False, False]
    """
    from wordfreq import zipf_frequency  # imported when first needed: it costs a quarter second at start-up

    return zipf_frequency(word.lower(), "en") >= COMMON_ZIPF
