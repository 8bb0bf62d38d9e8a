"""The vector cache (``kg.vector_cache``, ``KG_VECTOR_CACHE``): a text encoded once is not encoded
again, and the vectors a build stores from the cache are the very ones the encoder gives."""

from __future__ import annotations

import sqlite3

import pytest
from conftest import FIXTURES

from kg import dense
from kg.build import build
from kg.vector_cache import CACHE_ENV, FILE, VectorCache, cache_folder

SOURCES = [str(FIXTURES / "abstracts_linked.txt")]  # ten of the bundled abstracts
VECTORS = ("MATCH (v:PaperVectors) RETURN v.paper AS id, v.dense AS dense, v.sentences AS sentences, v.sentence_dense AS packed "
           "ORDER BY id")


class Counting(dense.Model):
    """The shipped encoder, noting the texts it encodes."""

    def __init__(self):
        super().__init__()
        self.read = []

    def encode_with_sentences(self, texts, spans):
        texts = list(texts)
        self.read.extend(texts)
        return super().encode_with_sentences(texts, spans)


def test_vectors_from_the_cache_are_those_the_encoder_gives(store, tmp_path, monkeypatch):
    """Two builds of the same abstracts into the emptied store: with the cache empty (the encoder runs),
    then with it holding them (the encoder never loaded): the same stored vectors, value for value."""
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    stored = {}
    for name in ("empty", "warm"):
        dense.default_model.cache_clear()
        store.run("MATCH (n) DETACH DELETE n", write=True)
        assert build(SOURCES, store).papers == 10
        stored[name] = store.run(VECTORS)
        loaded = dense.default_model()._session is not None
        assert loaded == (name != "warm"), name  # the warm build ran no encoder
    assert stored["empty"] == stored["warm"]
    assert all(row["dense"] and row["sentences"] and row["packed"] for row in stored["empty"])
    dense.default_model.cache_clear()


def test_a_text_is_encoded_once_and_again_when_it_changes(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    model = Counting()
    rows = [{"title": "LoRA", "abstract": "We adapt large models with low-rank updates.", "title_derived": False},
            {"title": "Soil", "abstract": "Soil moisture was measured daily in alpine meadows.", "title_derived": False}]
    first = dense._vectors(rows, model)
    assert dense._vectors(rows, model) == first and len(model.read) == 2
    changed = [rows[0], dict(rows[1], abstract="Soil moisture was measured hourly in alpine meadows.")]
    again = dense._vectors(changed, model)
    assert model.read[2:] == ["Soil Soil moisture was measured hourly in alpine meadows."] and again[0] == first[0]
    monkeypatch.setenv(CACHE_ENV, "0")
    assert dense._vectors(changed, Counting()) == again  # fresh from the encoder: the same


def test_past_its_bound_the_entries_used_longest_ago_go(tmp_path):
    cache = VectorCache(tmp_path, model_key="m", max_bytes=10_000)
    value = {"dense": [0.123456] * 100}  # about 900 bytes kept
    for number in range(10):
        cache.put({f"text {number}": value})
    assert cache.get(["text 0"])  # read: now the one used last
    for number in range(10, 15):
        cache.put({f"text {number}": value})
    size = sqlite3.connect(tmp_path / FILE).execute("SELECT sum(size) FROM vectors").fetchone()[0]
    assert 5_000 < size <= 10_000
    kept = cache.get([f"text {number}" for number in range(15)])
    assert "text 0" in kept and "text 14" in kept and "text 1" not in kept


def test_a_cache_kg_cannot_write_costs_only_the_speed_up(tmp_path, monkeypatch):
    (tmp_path / "file").write_text("not a folder")
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "file" / "cache"))
    model = Counting()
    rows = [{"title": "LoRA", "abstract": "We adapt large models with low-rank updates.", "title_derived": False}]
    assert dense._vectors(rows, model) == dense._vectors(rows, model) and len(model.read) == 2


@pytest.mark.parametrize("env, expected", [({CACHE_ENV: "0"}, None), ({CACHE_ENV: "~/vectors"}, "HOME/vectors"),
                                           ({"XDG_CACHE_HOME": "/xdg"}, "/xdg/kg/vectors"), ({}, "HOME/.cache/kg/vectors")])
def test_where_the_cache_is(env, expected, monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    for name in (CACHE_ENV, "XDG_CACHE_HOME"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    found = cache_folder()
    assert (found and str(found).replace(str(tmp_path), "HOME")) == expected
