"""Shared fixtures: the repository's model files."""

import pathlib

import pytest

import saltation

ROOT = pathlib.Path(__file__).resolve().parents[2]
MODELS = ROOT / "models"


@pytest.fixture(scope="session")
def models():
    """The directory of the repository's model files."""
    return MODELS


@pytest.fixture(scope="session")
def walker():
    """The simplest walker at the slope of Bhounsule 2014's Table 1 (γ = 0.009)."""
    return saltation.Model.load(MODELS / "simplest_walker.ron")


@pytest.fixture(scope="session")
def wheel():
    """The rimless wheel benchmark (λ² = 2/3, α = 0.2, 6 spokes)."""
    return saltation.Model.load(MODELS / "rimless_wheel.ron")


@pytest.fixture(scope="session")
def ball():
    """The bouncing ball (e = 0.8) dropped from rest at height 1."""
    return saltation.Model.load(MODELS / "bouncing_ball.ron")
