"""linalg/gram_schmidt.py: the one Gram–Schmidt, judged by exact arithmetic (Fractions), never by itself."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from purepca import DecimalContext, PurePCAError
from purepca.linalg.gram_schmidt import gaussian_vector, gram_schmidt, project_out
from purepca.numeric import FLOAT

EPS = 2.0 ** -52


def _exact_dot(u, v) -> Fraction:
    return sum((Fraction(a) * Fraction(b) for a, b in zip(u, v)), Fraction(0))


def _orthonormality_error(Q) -> float:
    """max |q_i·q_j - δ_ij|, exactly."""
    return float(max(abs(_exact_dot(Q[i], Q[j]) - (i == j)) for i in range(len(Q)) for j in range(len(Q))))


def _outside(v, Q) -> float:
    """‖v - Σ (q·v) q‖ / ‖v‖ in exact arithmetic (the q taken as they are): how far v leaves span(Q)."""
    r = [Fraction(x) for x in v]
    for q in Q:
        c = _exact_dot(q, r)
        r = [a - c * Fraction(b) for a, b in zip(r, q)]
    return float(_exact_dot(r, r) / _exact_dot(v, v)) ** 0.5


def _ill_conditioned(d: int, k: int, seed: int) -> list[list[float]]:
    """k vectors in R^d, each the one before plus 1e-10 of noise: a block of condition near 1e10."""
    rng = random.Random(seed)
    first = [rng.gauss(0, 1) for _ in range(d)]
    out = [first]
    for _ in range(k - 1):
        out.append([x + 1e-10 * rng.gauss(0, 1) for x in out[-1]])
    return out


@pytest.mark.parametrize("classical", [False, True])
def test_gram_schmidt_orthonormal_to_working_precision_on_an_ill_conditioned_block(classical: bool) -> None:
    block = _ill_conditioned(12, 6, seed=1)
    Q = gram_schmidt(block, FLOAT, random.Random(0), classical=classical)
    assert len(Q) == 6
    assert _orthonormality_error(Q) < 12 * 4 * EPS
    for i, v in enumerate(block):  # the i-th vector lies in the span of the first i + 1 results
        assert _outside(v, Q[: i + 1]) < 1e-6  # relative to ‖v‖; the block's own noise is 1e-10


@pytest.mark.parametrize("classical", [False, True])
def test_gram_schmidt_orthogonal_to_against(classical: bool) -> None:
    rng = random.Random(2)
    against = gram_schmidt([[rng.gauss(0, 1) for _ in range(7)] for _ in range(3)], FLOAT, rng)
    block = [[rng.gauss(0, 1) for _ in range(7)] for _ in range(3)]
    Q = gram_schmidt(block, FLOAT, rng, against=against, classical=classical)
    assert len(Q) == 3
    assert _orthonormality_error(against + Q) < 7 * 4 * EPS


def test_gram_schmidt_replaces_a_vector_inside_the_span_by_a_random_one() -> None:
    Q = gram_schmidt([[1.0, 0.0, 0.0], [3.0, 0.0, 0.0]], FLOAT, random.Random(5))
    assert Q[0] == [1.0, 0.0, 0.0]
    assert _orthonormality_error(Q) < 3 * 4 * EPS
    assert max(abs(x) for x in Q[1][1:]) > 0.1  # a new direction, not a rounding error of the first


def test_gram_schmidt_same_seed_same_bits() -> None:
    block = [[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.0, 1.0, 1.0]]
    assert gram_schmidt(block, FLOAT, random.Random(9)) == gram_schmidt(block, FLOAT, random.Random(9))


def test_gram_schmidt_room_caps_the_vectors_returned() -> None:
    rng = random.Random(3)
    block = [[rng.gauss(0, 1) for _ in range(4)] for _ in range(4)]
    assert len(gram_schmidt(block, FLOAT, rng, against=[[1.0, 0.0, 0.0, 0.0]], room=3)) == 3
    assert gram_schmidt(block, FLOAT, rng, room=0) == []


def test_gram_schmidt_leaves_its_inputs_alone() -> None:
    block = [[3.0, 4.0, 0.0], [1.0, 1.0, 1.0]]
    against = [[1.0, 0.0, 0.0]]
    gram_schmidt(block, FLOAT, random.Random(0), against=against, classical=True)
    gram_schmidt(block, FLOAT, random.Random(0), against=against)
    assert block == [[3.0, 4.0, 0.0], [1.0, 1.0, 1.0]] and against == [[1.0, 0.0, 0.0]]


def test_gram_schmidt_raises_what_when_no_vector_will_do() -> None:
    def zeros(rng: random.Random, d: int, ctx: object) -> list[float]:
        return [0.0] * d

    with pytest.raises(PurePCAError, match="^lanczos: could not extend the basis$"):
        gram_schmidt([[1.0, 0.0], [2.0, 0.0]], FLOAT, random.Random(0), attempts=3, random_vector=zeros,
                     what="lanczos: could not extend the basis")


@pytest.mark.parametrize("classical", [False, True])
def test_gram_schmidt_decimal_context_orthonormal_to_its_digits(classical: bool) -> None:
    ctx = DecimalContext(40)
    block = [[ctx.convert(x) for x in v] for v in _ill_conditioned(6, 4, seed=4)]
    with ctx.local():
        Q = gram_schmidt(block, ctx, random.Random(0), classical=classical)
    assert _orthonormality_error(Q) < 1e-37


def test_gram_schmidt_gaussian_vector_follows_the_seed() -> None:
    rng = random.Random(11)
    expected = [rng.gauss(0.0, 1.0) for _ in range(5)]
    assert gaussian_vector(random.Random(11), 5, FLOAT) == expected


@pytest.mark.parametrize("classical", [False, True])
def test_gram_schmidt_project_out_leaves_the_part_off_the_basis(classical: bool) -> None:
    rng = random.Random(6)
    basis = gram_schmidt([[rng.gauss(0, 1) for _ in range(5)] for _ in range(2)], FLOAT, rng)
    v = [rng.gauss(0, 1) for _ in range(5)]
    w = project_out(project_out(v, basis, FLOAT, classical=classical), basis, FLOAT, classical=classical)
    assert max(abs(float(_exact_dot(q, w))) for q in basis) < 5 * 4 * EPS
    exact = [Fraction(x) for x in v]  # v - Σ (q·v) q in exact arithmetic, the q as they are
    for q in basis:
        c = _exact_dot(q, v)
        exact = [a - c * Fraction(b) for a, b in zip(exact, q)]
    assert max(abs(float(a - Fraction(b))) for a, b in zip(exact, w)) < 5 * 4 * EPS
