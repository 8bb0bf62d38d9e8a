"""In-text citations on real sentences (published abstracts and the bundled examples)."""

import pytest

from kg.extract.patterns import find_citations


def cites(text):
    return [(c["authors"], c["year"]) for c in find_citations(text)]


@pytest.mark.parametrize("text, expected", [
    ("We adapt a pretrained foundation model for DS reconstruction, DynaMix (Hemmer & Durstewitz, 2025), to a minimal "
     "interface", [(["Hemmer", "Durstewitz"], 2025)]),
    ("pricing, this improves upon a result of Medina and Vassilvitskii (2017), and with a substantially simpler "
     "analysis", [(["Medina", "Vassilvitskii"], 2017)]),
    ("the stochastic-fractional COVID-19 model of Bonyah et al., the NeuralFSDE produces", [(["Bonyah"], None)]),
    ("the automated anatomical labeling atlas (Tzourio-Mazoyer et\u00a0al., 2002), a second version (AAL2) "
     "(Rolls et\u00a0al., 2015) was developed", [(["Tzourio-Mazoyer"], 2002), (["Rolls"], 2015)]),
    ("a deletion of 9 nucleotides of rDNA (Roiha et al.,1981).", [(["Roiha"], 1981)]),
    ("their caprock sealing (Xu et al. 2005; Kharaka et al. 2006, 2010; Benson and Cole 2008).",
     [(["Xu"], 2005), (["Kharaka"], 2006), (["Benson", "Cole"], 2008)]),
    ("supports some prior studies (Pearce& Zahra, 1991; Zahra & Pearce, 1989)",
     [(["Pearce", "Zahra"], 1991), (["Zahra", "Pearce"], 1989)]),
    ("as in (Smith, Jones, and Lee, 2020) and van der Maaten and Hinton (2008a)",
     [(["Smith", "Jones", "Lee"], 2020), (["van der Maaten", "Hinton"], 2008)]),
    ("Weight decay (Loshchilov et al., 2025; Yang and Hu, 2021) helps", [(["Loshchilov"], 2025), (["Yang", "Hu"], 2021)]),
])
def test_author_year_citations(text, expected):
    assert cites(text) == expected


@pytest.mark.parametrize("text", [
    "During the study period of 5 years (October 2013 to October 2018), a total of 1742 patients",
    "a statistical analysis of 5.5 years of data (January 2014–May 2019) from the station",
    "(3rd ed., rev.; American Psychiatric Association, 1987)",
    "New York: Cornell University Press, 1981",
    "as reported at (NeurIPS 2020) and in (Table 2, 2019)",
])
def test_dates_publishers_and_venues_are_not_citations(text):
    assert cites(text) == []


def test_offsets_slice_the_text():
    text = "Following Medina and Vassilvitskii (2017, Theorem 2), and (Yang and Hu, 2021)."
    for c in find_citations(text):
        assert text[c["start"]:c["end"]] == c["text"]
    assert [c["text"] for c in find_citations(text)] == ["Medina and Vassilvitskii (2017, Theorem 2)", "Yang and Hu, 2021"]
