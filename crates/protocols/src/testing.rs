//! What the unit tests of several formats share.

use konakis_core::board::BoardOf;
use konakis_core::geometry::Geometry;
use konakis_engine::skill::SplitMix64;

/// A random position of size `G`: one king anywhere, soldiers of both sides on a random
/// share of the other squares (none on the throne), either side to move.
pub fn random_board<G: Geometry>(rng: &mut SplitMix64) -> BoardOf<G> {
    let mut cells = vec![None; G::SQUARES];
    let king = rng.up_to(G::SQUARES as u32 - 1) as usize;
    cells[king] = Some('K');
    let fill = rng.up_to(60);
    for (i, cell) in cells.iter_mut().enumerate() {
        if i != king && i != G::THRONE && rng.up_to(99) < fill {
            *cell = Some(if rng.up_to(1) == 0 { 'b' } else { 'w' });
        }
    }
    let mut fen = String::new();
    for rank in (0..G::SIDE).rev() {
        let mut empty = 0;
        for file in 0..G::SIDE {
            match cells[rank * G::SIDE + file] {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(c);
                }
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    fen.push_str(if rng.up_to(1) == 0 { " b" } else { " w" });
    BoardOf::from_fen(&fen).unwrap()
}

/// A random text of up to `max` characters drawn from `alphabet`, for the tests that feed
/// readers text that is nearly right.
pub fn random_text(rng: &mut SplitMix64, alphabet: &[char], max: u32) -> String {
    let len = rng.up_to(max);
    (0..len)
        .map(|_| alphabet[rng.up_to(alphabet.len() as u32 - 1) as usize])
        .collect()
}
