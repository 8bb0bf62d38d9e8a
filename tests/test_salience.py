"""The salience model's inputs that read the shape of a name and the length of its paper, on records
``kg extract`` writes, and the shipped weights read as a reader would rank them."""

from kg.extract import salience

TEXT = ("We model the dispersion of migrating shorebirds. Counts at Langebaan Lagoon and in the "
        "Banc d'Arguin show that graph attention networks predict arrival dates. NASA data confirm it.")


def concept(name: str, type_: str = "Entity", rule: str = "scierc_ner") -> dict:
    """A record concept named once in ``TEXT``, as ``kg extract`` writes one."""
    start = TEXT.index(name)
    return {"name": name, "type": type_, "key": name.lower(), "mentions": [[start, start + len(name)]],
            "evidence": [{"sentence": [0, len(TEXT)], "rule": rule, "confidence": 0.75}],
            "proposed": None, "confidence": 0.75, "merges": []}


def record(text: str = TEXT, title: str = "Shorebirds in Africa") -> dict:
    second = text.find("Counts")
    return {"title": title, "title_derived": False, "text": text,
            "concepts": [dict(concept("dispersion"), evidence=[{"sentence": [0, second], "rule": "scierc_ner", "confidence": 0.75}]),
                         dict(concept("Langebaan Lagoon"), evidence=[{"sentence": [second, len(text)], "rule": "scierc_ner",
                                                                     "confidence": 0.75}])]}


def test_a_capital_in_the_middle_of_a_sentence_is_read_and_one_that_starts_it_is_not():
    context = salience.Context.of_record(record())
    lagoon = salience.features(concept("Langebaan Lagoon"), context)
    networks = salience.features(concept("graph attention networks", "Method"), context)
    nasa = salience.features(concept("NASA"), context)
    counts = salience.features(concept("Counts"), context)
    assert (lagoon["capital_mid_sentence"], lagoon["proper_shape"]) == (1.0, 1.0)
    assert (networks["capital_mid_sentence"], networks["proper_shape"]) == (0.0, 0.0)
    assert nasa["capital_mid_sentence"] == 0.0  # an acronym, not a name written with a capital
    assert counts["capital_mid_sentence"] == 0.0  # the sentence starts there


def test_a_title_alone_is_a_short_text():
    long_text = (TEXT + " ") * 20
    short, long = salience.Context.of_record(record(TEXT)), salience.Context.of_record(record(long_text))
    assert abs(salience.features(concept("dispersion"), short)["paper_length"] - len(TEXT) / salience.LONG_TEXT) < 1e-9
    assert salience.features(concept("dispersion"), long)["paper_length"] == 1.0


def test_the_shipped_weights_read_the_new_inputs_and_a_place_name_ranks_below_a_method():
    weights = salience.model()["weights"]
    assert {"proper_shape", "capital_mid_sentence", "paper_length"} <= set(weights)
    context = salience.Context.of_record(record())
    place = salience.salience(concept("Langebaan Lagoon"), context)
    method = salience.salience(concept("graph attention networks", "Method"), context)
    assert 0.0 < place < method < 1.0


def test_the_word_pieces_read_what_a_name_means_and_every_scored_piece_is_one_the_tokenizer_gives():
    assert salience.word_pieces("Tannic acids") == ["tan", "##nic", "acids"]  # no padding, no [CLS] / [SEP]
    prior = {name: salience.piece_prior(salience.word_pieces(name))
             for name in ("study", "approach", "effects", "graph attention networks", "named entity recognition", "tannic acid")}
    assert max(prior["study"], prior["approach"], prior["effects"]) < min(
        prior["graph attention networks"], prior["named entity recognition"], prior["tannic acid"])
    vocabulary = salience._tokenizer().get_vocab()
    assert set(salience.piece_scores()) <= set(vocabulary)
    assert not any(piece.startswith("[") for piece in salience.piece_scores())
    assert salience.model()["weights"]["pieces"] == 1.0  # the fit folds its scale into the scores
