//! The engine's integer inference of an exported network ([`Network::evaluate`]) against the
//! trainer's reference, exactly, without Python.
//!
//! The fixtures in `tests/data/network/` (docs/network.md, "The engine's inference", has the
//! commands that made them): three freestyle 15x15 self-play games (`fs15.games`), two tiny
//! networks `nn/train.py` trained on their positions — `r8.hnn` (residual, pcode tables, no
//! convolution), `c8.hnn` (standalone, line patterns only, the 3x3 convolution), `w8.hnn`
//! (residual, pcode tables, line windows of reach 2) and `n8.hnn` (standalone, pcode tables,
//! line windows of reach 2, no cell layer), `m8.hnn` (residual, pcode tables, line windows of
//! reach 2, no cell layer, the colours mirrored) — and for
//! each the integers `nn/reference.py --full` printed on every position of the games'
//! position file: the value and every cell's policy. The test replays the games into the
//! positions `pbrain-hoshi features` writes, in its order, and asserts the same integers.

use std::path::{Path, PathBuf};

use hoshi::eval::features::is_quiet;
use hoshi::eval::network::{Network, NetworkError, NetworkOutput};
use hoshi_tools::dataset::{self, Refusal};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/network")
        .join(name)
}

/// One line of `reference.py --full`.
#[derive(Debug)]
struct Expected {
    game: u32,
    ply: u16,
    value: i32,
    policy: Vec<i32>,
}

fn expected(name: &str) -> Vec<Expected> {
    let text = std::fs::read_to_string(data(name)).unwrap();
    text.lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let int = |key: &str| v[key].as_i64().unwrap_or_else(|| panic!("{key}: {line}"));
            Expected {
                game: int("game") as u32,
                ply: int("ply") as u16,
                value: int("value") as i32,
                policy: v["policy"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_i64().unwrap() as i32)
                    .collect(),
            }
        })
        .collect()
}

/// The network's outputs on every position `features` exports from the fixture games, in
/// its order (game index, ply, outputs), and the legal cells of each.
fn outputs(net: &Network) -> Vec<(u32, u16, NetworkOutput, Vec<usize>)> {
    let mut out = Vec::new();
    let mut game = 0u32;
    dataset::for_each_game::<String>(&[data("fs15.games")], 0, 0.0, |g| {
        let size = usize::from(g.header.size);
        dataset::replay(g.header.rule, g.header.size, g.game, |pb, me, _, _| {
            // The positions `features` writes: the quiet ones (crates/tools/src/features.rs).
            if is_quiet(pb, me) {
                let legal = pb
                    .all_cells()
                    .filter(|&i| pb.is_legal(i, me))
                    .map(|i| {
                        let p = pb.pos(i);
                        usize::from(p.y) * size + usize::from(p.x)
                    })
                    .collect();
                let o = net.evaluate(pb, me).expect("a square board");
                out.push((game, pb.board().history().len() as u16, o, legal));
            }
        })
        .map_err(Refusal::Stop)?;
        game += 1;
        Ok(())
    })
    .unwrap();
    out
}

/// Every position's value and every cell's policy equal the reference's integers.
fn assert_matches_reference(network: &str, reference: &str) {
    let net = Network::load(&data(network)).unwrap();
    let want = expected(reference);
    let got = outputs(&net);
    assert_eq!(got.len(), want.len(), "{network}: positions");
    let mut legal_cells = 0;
    for (i, ((game, ply, o, legal), w)) in got.iter().zip(&want).enumerate() {
        let at = format!("{network}, position {i} (game {game}, ply {ply})");
        assert_eq!((*game, *ply), (w.game, w.ply), "{at}: another position");
        assert_eq!(o.value, w.value, "{at}: value");
        assert_eq!(o.policy.len(), w.policy.len(), "{at}: cells");
        // Every legal cell named first (what the engine will read), then every cell.
        for &c in legal {
            assert_eq!(o.policy[c], w.policy[c], "{at}: policy of legal cell {c}");
        }
        legal_cells += legal.len();
        assert_eq!(o.policy, w.policy, "{at}: policy");
    }
    // The fixture is no degenerate case: values and policies vary from cell to cell and
    // from position to position (a constant would hide an error in the layers).
    let values: std::collections::BTreeSet<_> = want.iter().map(|w| w.value).collect();
    let policies: std::collections::BTreeSet<_> =
        want.iter().flat_map(|w| w.policy.iter().copied()).collect();
    assert!(values.len() > want.len() / 2, "{network}: {values:?}");
    assert!(
        policies.len() > 100,
        "{network}: {} policies",
        policies.len()
    );
    assert_eq!(legal_cells, 13_566, "{network}: legal cells");
}

#[test]
fn a_residual_network_with_pcode_tables_matches_the_reference_exactly() {
    let net = Network::load(&data("r8.hnn")).unwrap();
    assert_eq!((net.channels(), net.hidden()), (8, 8));
    assert!(net.residual() && net.has_pcode_table() && !net.has_conv());
    assert_matches_reference("r8.hnn", "r8.expected.jsonl");
}

#[test]
fn a_network_with_the_convolution_matches_the_reference_exactly() {
    let net = Network::load(&data("c8.hnn")).unwrap();
    assert_eq!((net.channels(), net.hidden()), (8, 8));
    assert!(!net.residual() && !net.has_pcode_table() && net.has_conv());
    assert_matches_reference("c8.hnn", "c8.expected.jsonl");
}

#[test]
fn a_line_window_network_matches_the_reference_exactly() {
    let net = Network::load(&data("w8.hnn")).unwrap();
    assert_eq!((net.channels(), net.hidden(), net.window()), (8, 8, 2));
    assert!(net.residual() && net.has_pcode_table() && !net.has_conv());
    assert_eq!(net.rule(), hoshi::rules::Rule::Freestyle);
    assert_matches_reference("w8.hnn", "w8.expected.jsonl");
}

#[test]
fn a_mirrored_network_matches_the_reference_exactly() {
    let net = Network::load(&data("m8.hnn")).unwrap();
    assert!(net.mirrored() && net.residual() && net.window() == 2);
    assert_matches_reference("m8.hnn", "m8.expected.jsonl");
}

#[test]
fn a_network_without_the_cell_layer_matches_the_reference_exactly() {
    let net = Network::load(&data("n8.hnn")).unwrap();
    assert_eq!((net.channels(), net.hidden(), net.window()), (8, 8, 2));
    assert!(!net.residual() && net.has_pcode_table() && !net.has_cell_layer());
    assert_matches_reference("n8.hnn", "n8.expected.jsonl");
}

/// Networks wider than the kernels' 16-lane blocks (`eval/simd.rs`): 16 channels, one
/// whole block (mirrored, no cell layer), and 24, a block and a remainder (both views, the
/// cell layer).
#[test]
fn wider_networks_match_the_reference_exactly() {
    let m = Network::load(&data("m16.hnn")).unwrap();
    assert!(m.channels() == 16 && m.mirrored() && !m.has_cell_layer());
    assert_matches_reference("m16.hnn", "m16.expected.jsonl");
    let w = Network::load(&data("w24.hnn")).unwrap();
    assert!(w.channels() == 24 && !w.mirrored() && w.has_cell_layer() && w.window() == 2);
    assert_matches_reference("w24.hnn", "w24.expected.jsonl");
}

/// The fixtures refused when damaged: a flipped byte by the checksum, a cut-short copy
/// by its size, another file by its magic.
#[test]
fn a_damaged_or_cut_short_fixture_is_refused() {
    let good = std::fs::read(data("c8.hnn")).unwrap();
    let mut flipped = good.clone();
    flipped[good.len() / 3] ^= 0x40;
    assert!(matches!(
        Network::from_bytes(&flipped),
        Err(NetworkError::Checksum)
    ));
    assert!(matches!(
        Network::from_bytes(&good[..good.len() - 100]),
        Err(NetworkError::Truncated { .. })
    ));
    let games = std::fs::read(data("fs15.games")).unwrap();
    assert!(matches!(
        Network::from_bytes(&games),
        Err(NetworkError::BadMagic)
    ));
}
