//! The reference rules: slow, obviously correct code written from docs/rules.md (and, for
//! `Ruleset=Ashton`, from the Tablut Challenge server's) on a board of 81 cells, and reference
//! readers of position strings, moves and rule options. The random tests compare the library
//! with it.

use konakis::Board;
use konakis::{
    DrawReason, KingCapture, Move, Piece, Rules, Ruleset, Side, Square, Status, WinReason,
};

// ---------------------------------------------------------------------------------------------
// The reference model: one cell per square, index `rank * 9 + file` (a1 = 0, i9 = 80).
// ---------------------------------------------------------------------------------------------

/// The throne, e5.
pub const THRONE: usize = 40;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cell {
    Empty,
    Att,
    Def,
    King,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Pos {
    pub cells: [Cell; 81],
    pub side: Side,
    pub plies: u32,
}

/// (file, rank) change of one step: north, east, south, west.
pub const DIRS: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

pub fn step(s: usize, d: usize) -> Option<usize> {
    let f = (s % 9) as i32 + DIRS[d].0;
    let r = (s / 9) as i32 + DIRS[d].1;
    if (0..9).contains(&f) && (0..9).contains(&r) {
        Some((r * 9 + f) as usize)
    } else {
        None
    }
}

pub fn neighbours(s: usize) -> Vec<usize> {
    (0..4).filter_map(|d| step(s, d)).collect()
}

pub fn on_edge(s: usize) -> bool {
    let (f, r) = (s % 9, s / 9);
    f == 0 || f == 8 || r == 0 || r == 8
}

pub fn distance(a: usize, b: usize) -> usize {
    (a % 9).abs_diff(b % 9) + (a / 9).abs_diff(b / 9)
}

pub fn name(s: usize) -> String {
    format!("{}{}", (b'a' + (s % 9) as u8) as char, s / 9 + 1)
}

pub fn square(s: usize) -> Square {
    Square::new(s as u8).expect("index below 81")
}

pub fn to_move(m: (usize, usize)) -> Move {
    Move::new(square(m.0), square(m.1))
}

pub fn from_move(m: Move) -> (usize, usize) {
    (m.from().index(), m.to().index())
}

pub fn move_names(moves: &[(usize, usize)]) -> String {
    let v: Vec<String> = moves
        .iter()
        .map(|&(f, t)| format!("{}{}", name(f), name(t)))
        .collect();
    v.join(" ")
}

pub fn opponent(side: Side) -> Side {
    match side {
        Side::Attackers => Side::Defenders,
        Side::Defenders => Side::Attackers,
    }
}

impl Pos {
    pub fn from_board(b: &Board) -> Pos {
        let mut cells = [Cell::Empty; 81];
        for s in Square::all() {
            cells[s.index()] = match b.piece_at(s) {
                None => Cell::Empty,
                Some(Piece::Attacker) => Cell::Att,
                Some(Piece::Defender) => Cell::Def,
                Some(Piece::King) => Cell::King,
            };
        }
        Pos {
            cells,
            side: b.side_to_move(),
            plies: b.plies(),
        }
    }

    pub fn king(&self) -> Option<usize> {
        self.cells.iter().position(|&c| c == Cell::King)
    }

    pub fn count(&self, cell: Cell) -> usize {
        self.cells.iter().filter(|&&c| c == cell).count()
    }

    /// The placement field, written here independently of the library.
    pub fn placement(&self) -> String {
        let mut s = String::new();
        for rank in (0..9).rev() {
            let mut empty = 0;
            for file in 0..9 {
                let letter = match self.cells[rank * 9 + file] {
                    Cell::Empty => {
                        empty += 1;
                        continue;
                    }
                    Cell::Att => 'b',
                    Cell::Def => 'w',
                    Cell::King => 'K',
                };
                if empty > 0 {
                    s.push_str(&empty.to_string());
                    empty = 0;
                }
                s.push(letter);
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s
    }

    /// Placement and side to move: what repetition compares.
    pub fn key(&self) -> String {
        let side = match self.side {
            Side::Attackers => 'b',
            Side::Defenders => 'w',
        };
        format!("{} {side}", self.placement())
    }

    pub fn fen(&self) -> String {
        format!("{} {}", self.key(), self.plies)
    }

    pub fn board(&self) -> Board {
        Board::from_fen(&self.fen()).unwrap_or_else(|e| panic!("'{}' rejected: {e}", self.fen()))
    }

    /// Attackers, defenders (as bit sets) and the king's square.
    pub fn bits(&self) -> (u128, u128, Option<usize>) {
        let (mut att, mut def) = (0u128, 0u128);
        for (s, &c) in self.cells.iter().enumerate() {
            match c {
                Cell::Att => att |= 1 << s,
                Cell::Def => def |= 1 << s,
                _ => {}
            }
        }
        (att, def, self.king())
    }
}

// ---------------------------------------------------------------------------------------------
// Reference rules, straight from docs/rules.md.
// ---------------------------------------------------------------------------------------------

/// Encirclement: no defender (the king included) is connected to an edge square through
/// orthogonally adjacent empty squares; a defender on an edge square is connected.
pub fn ref_encircled(p: &Pos) -> bool {
    let defenders: Vec<usize> = (0..81)
        .filter(|&s| matches!(p.cells[s], Cell::Def | Cell::King))
        .collect();
    if defenders.iter().any(|&s| on_edge(s)) {
        return false;
    }
    let mut seen = [false; 81];
    let mut queue: Vec<usize> = (0..81)
        .filter(|&s| on_edge(s) && p.cells[s] == Cell::Empty)
        .collect();
    for &s in &queue {
        seen[s] = true;
    }
    while let Some(s) = queue.pop() {
        for n in neighbours(s) {
            if !seen[n] && p.cells[n] == Cell::Empty {
                seen[n] = true;
                queue.push(n);
            }
        }
    }
    !defenders
        .iter()
        .any(|&s| neighbours(s).into_iter().any(|n| seen[n]))
}

/// The game is won on this board: the king on an edge, the king captured, or encircled.
pub fn ref_won(p: &Pos, rules: &Rules) -> bool {
    match p.king() {
        None => true,
        Some(k) if on_edge(k) => true,
        Some(_) => rules.encirclement && ref_encircled(p),
    }
}

/// Every move `side` would have here, walking square by square; ignores whether the game is
/// won. Sorted.
pub fn ref_moves_of(p: &Pos, rules: &Rules, side: Side) -> Vec<(usize, usize)> {
    if rules.ruleset == Ruleset::Ashton {
        return ashton_moves_of(p, side);
    }
    let mut out = Vec::new();
    for from in 0..81 {
        let c = p.cells[from];
        let mine = match side {
            Side::Attackers => c == Cell::Att,
            Side::Defenders => c == Cell::Def || c == Cell::King,
        };
        if !mine {
            continue;
        }
        // Only the king may stop on the throne, and only under KingReentersThrone.
        let may_stop_on_throne = c == Cell::King && rules.king_reenters_throne;
        // ThronePassable: anyone crosses the empty throne; else only a king who may stop on it.
        let may_cross_throne = rules.throne_passable || may_stop_on_throne;
        for d in 0..4 {
            let mut cur = from;
            while let Some(next) = step(cur, d) {
                if p.cells[next] != Cell::Empty {
                    break;
                }
                if next == THRONE {
                    if may_stop_on_throne {
                        out.push((from, next));
                    }
                    if !may_cross_throne {
                        break;
                    }
                } else {
                    out.push((from, next));
                }
                cur = next;
            }
        }
    }
    out.sort_unstable();
    out
}

/// The legal moves of the side to move: none on a won board.
pub fn ref_legal(p: &Pos, rules: &Rules) -> Vec<(usize, usize)> {
    if ref_won(p, rules) {
        Vec::new()
    } else {
        ref_moves_of(p, rules, p.side)
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum KingTaken {
    /// On the throne, attackers on all four sides.
    OnThrone,
    /// Beside the throne, attackers on the three other sides.
    BesideThrone,
    /// Elsewhere, `Original`: sandwiched by the mover and another attacker.
    Sandwich,
    /// Elsewhere, `English`: attackers on all four sides.
    FourSides,
    /// Ashton, elsewhere: the mover and a camp square beyond the king.
    AgainstCamp,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Partner {
    Soldier,
    /// The armed king as the partner of a defender.
    King,
    /// The empty, hostile throne.
    Throne,
    /// Rule 10: the besieged king on the throne is the attackers' partner against his guard.
    BesiegedKing,
    /// Ashton: a camp square, empty or not.
    Camp,
}

pub struct Played {
    pub pos: Pos,
    /// Captured soldiers, sorted.
    pub captured: Vec<usize>,
    pub king_taken: Option<KingTaken>,
    pub partners: Vec<Partner>,
    /// The mover was the king.
    pub king_moved: bool,
}

/// Plays a legal move and applies the captures of docs/rules.md, all judged on the board just
/// after the piece has arrived and removed together.
pub fn ref_play(pos: &Pos, rules: &Rules, from: usize, to: usize) -> Played {
    if rules.ruleset == Ruleset::Ashton {
        return ashton_play(pos, from, to);
    }
    let mut p = pos.clone();
    let piece = p.cells[from];
    assert!(piece != Cell::Empty && p.cells[to] == Cell::Empty);
    p.cells[from] = Cell::Empty;
    p.cells[to] = piece;
    p.side = opponent(p.side);
    p.plies += 1;
    let attacking = piece == Cell::Att;
    let (friend, enemy) = if attacking {
        (Cell::Att, Cell::Def)
    } else {
        (Cell::Def, Cell::Att)
    };
    let mut captured = Vec::new();
    let mut partners = Vec::new();
    // An unarmed king is never one of the two capturing pieces.
    if piece != Cell::King || rules.king_armed {
        for d in 0..4 {
            let Some(victim) = step(to, d) else { continue };
            let Some(beyond) = step(victim, d) else {
                continue; // the board edge never captures
            };
            if p.cells[victim] != enemy {
                continue;
            }
            let partner = match p.cells[beyond] {
                c if c == friend => Some(Partner::Soldier),
                Cell::King if !attacking && rules.king_armed => Some(Partner::King),
                Cell::King
                    if attacking
                        && beyond == THRONE
                        && rules.throne_guard_capture
                        && neighbours(THRONE)
                            .into_iter()
                            .filter(|&s| s != victim)
                            .all(|s| p.cells[s] == Cell::Att) =>
                {
                    Some(Partner::BesiegedKing)
                }
                Cell::Empty if beyond == THRONE && rules.throne_hostile => Some(Partner::Throne),
                _ => None,
            };
            if let Some(partner) = partner {
                captured.push(victim);
                partners.push(partner);
            }
        }
    }
    let mut king_taken = None;
    if attacking {
        for d in 0..4 {
            let Some(k) = step(to, d) else { continue };
            if p.cells[k] != Cell::King {
                continue;
            }
            let attackers_on =
                |squares: Vec<usize>| squares.iter().all(|&s| p.cells[s] == Cell::Att);
            let taken = if k == THRONE {
                attackers_on(neighbours(k)).then_some(KingTaken::OnThrone)
            } else if distance(k, THRONE) == 1 {
                let others = neighbours(k).into_iter().filter(|&s| s != THRONE).collect();
                attackers_on(others).then_some(KingTaken::BesideThrone)
            } else if rules.king_capture == KingCapture::English {
                let ring = neighbours(k);
                (ring.len() == 4 && attackers_on(ring)).then_some(KingTaken::FourSides)
            } else {
                step(k, d)
                    .filter(|&s| p.cells[s] == Cell::Att)
                    .map(|_| KingTaken::Sandwich)
            };
            if taken.is_some() {
                king_taken = taken;
                p.cells[k] = Cell::Empty;
            }
        }
    }
    for &s in &captured {
        p.cells[s] = Cell::Empty;
    }
    captured.sort_unstable();
    Played {
        pos: p,
        captured,
        king_taken,
        partners,
        king_moved: piece == Cell::King,
    }
}

/// The status of a game in this position, `occurrences` being how often the position (with
/// the side to move) has occurred; `None` judges the board alone, without repetition.
pub fn ref_status(p: &Pos, rules: &Rules, occurrences: Option<usize>) -> Status {
    match p.king() {
        Some(k) if on_edge(k) => return Status::Win(Side::Defenders, WinReason::KingEscaped),
        None => return Status::Win(Side::Attackers, WinReason::KingCaptured),
        Some(_) => {}
    }
    if rules.encirclement && ref_encircled(p) {
        return Status::Win(Side::Attackers, WinReason::Encircled);
    }
    if ref_legal(p, rules).is_empty() {
        return Status::Win(opponent(p.side), WinReason::NoMoves);
    }
    if occurrences.is_some_and(|n| n >= rules.repetition_draw as usize) {
        return Status::Draw(DrawReason::Repetition);
    }
    if rules.move_limit > 0 && p.plies >= rules.move_limit {
        return Status::Draw(DrawReason::MoveLimit);
    }
    Status::Ongoing
}

pub fn ref_perft(p: &Pos, rules: &Rules, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = ref_legal(p, rules);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&(f, t)| ref_perft(&ref_play(p, rules, f, t).pos, rules, depth - 1))
        .sum()
}

// ---------------------------------------------------------------------------------------------
// Reference Ashton rules, straight from the Tablut Challenge server's: the server's checks, square by square.
// ---------------------------------------------------------------------------------------------

/// The index of a square named `a1`..`i9`.
pub fn index_of(name: &str) -> usize {
    let b = name.as_bytes();
    (b[1] - b'1') as usize * 9 + (b[0] - b'a') as usize
}

/// The server's citadels.
pub fn is_camp(s: usize) -> bool {
    [
        "a4", "a5", "a6", "b5", "d1", "e1", "f1", "e2", "i4", "i5", "i6", "h5", "d9", "e9", "f9",
        "e8",
    ]
    .iter()
    .any(|&n| index_of(n) == s)
}

/// The camp squares the server leaves out of its anvils against black soldiers.
pub fn is_middle_camp(s: usize) -> bool {
    ["a5", "e1", "i5", "e9"].iter().any(|&n| index_of(n) == s)
}

/// Every move `side` would have here under the server's move check: a rook move over empty
/// squares; the throne is never passed or landed on; a camp square is never passed or
/// landed on unless the move starts on a camp square; camp to camp more than 5 squares apart
/// is refused.
pub fn ashton_moves_of(p: &Pos, side: Side) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for from in 0..81 {
        let mine = match side {
            Side::Attackers => p.cells[from] == Cell::Att,
            Side::Defenders => matches!(p.cells[from], Cell::Def | Cell::King),
        };
        if !mine {
            continue;
        }
        let from_camp = is_camp(from);
        for d in 0..4 {
            let mut cur = from;
            while let Some(next) = step(cur, d) {
                if p.cells[next] != Cell::Empty || next == THRONE {
                    break;
                }
                if is_camp(next) && !from_camp {
                    break;
                }
                // Only this destination is refused; squares beyond it are judged on their own.
                let too_far = is_camp(next) && from_camp && distance(from, next) > 5;
                if !too_far {
                    out.push((from, next));
                }
                cur = next;
            }
        }
    }
    out.sort_unstable();
    out
}

/// Plays a legal move with the server's captures, judged around the destination on the board
/// just after the piece has arrived.
pub fn ashton_play(pos: &Pos, from: usize, to: usize) -> Played {
    let mut p = pos.clone();
    let piece = p.cells[from];
    assert!(piece != Cell::Empty && p.cells[to] == Cell::Empty);
    p.cells[from] = Cell::Empty;
    p.cells[to] = piece;
    p.side = opponent(p.side);
    p.plies += 1;
    let white_moved = piece != Cell::Att;
    let mut captured = Vec::new();
    let mut partners = Vec::new();
    for d in 0..4 {
        let Some(victim) = step(to, d) else { continue };
        let Some(beyond) = step(victim, d) else {
            continue;
        };
        let partner = if white_moved {
            // A black soldier: against a white soldier, the king, the throne, or a camp square
            // other than the four middle ones.
            if p.cells[victim] != Cell::Att {
                continue;
            }
            match p.cells[beyond] {
                Cell::Def => Some(Partner::Soldier),
                Cell::King => Some(Partner::King),
                _ if beyond == THRONE => Some(Partner::Throne),
                _ if is_camp(beyond) && !is_middle_camp(beyond) => Some(Partner::Camp),
                _ => None,
            }
        } else {
            // A white soldier (never the king): against a black soldier, any camp square, or
            // the throne square whatever stands on it.
            if p.cells[victim] != Cell::Def {
                continue;
            }
            if p.cells[beyond] == Cell::Att {
                Some(Partner::Soldier)
            } else if is_camp(beyond) {
                Some(Partner::Camp)
            } else if beyond == THRONE {
                Some(Partner::Throne)
            } else {
                None
            }
        };
        if let Some(partner) = partner {
            captured.push(victim);
            partners.push(partner);
        }
    }
    let mut king_taken = None;
    if !white_moved {
        for d in 0..4 {
            let Some(k) = step(to, d) else { continue };
            if p.cells[k] != Cell::King {
                continue;
            }
            let black_on =
                |squares: &[&str]| squares.iter().all(|&n| p.cells[index_of(n)] == Cell::Att);
            let taken = match name(k).as_str() {
                "e5" => black_on(&["e4", "e6", "d5", "f5"]).then_some(KingTaken::OnThrone),
                "e4" => black_on(&["e3", "d4", "f4"]).then_some(KingTaken::BesideThrone),
                "e6" => black_on(&["e7", "d6", "f6"]).then_some(KingTaken::BesideThrone),
                "d5" => black_on(&["c5", "d4", "d6"]).then_some(KingTaken::BesideThrone),
                "f5" => black_on(&["g5", "f4", "f6"]).then_some(KingTaken::BesideThrone),
                _ => match step(k, d) {
                    Some(f) if p.cells[f] == Cell::Att => Some(KingTaken::Sandwich),
                    Some(f) if is_camp(f) => Some(KingTaken::AgainstCamp),
                    _ => None,
                },
            };
            if taken.is_some() {
                king_taken = taken;
                p.cells[k] = Cell::Empty;
            }
        }
    }
    for &s in &captured {
        p.cells[s] = Cell::Empty;
    }
    captured.sort_unstable();
    Played {
        pos: p,
        captured,
        king_taken,
        partners,
        king_moved: piece == Cell::King,
    }
}

/// Reference reader of position strings, from docs/rules.md: `<placement> <side> [<plies>]`,
/// exactly one king, no soldier on the throne, nothing else.
pub fn ref_parse(text: &str) -> Option<Pos> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if !(2..=3).contains(&fields.len()) {
        return None;
    }
    let side = match fields[1] {
        "b" => Side::Attackers,
        "w" => Side::Defenders,
        _ => return None,
    };
    let plies = match fields.get(2) {
        None => 0,
        Some(p) => p.parse::<u32>().ok()?,
    };
    let ranks: Vec<&str> = fields[0].split('/').collect();
    if ranks.len() != 9 {
        return None;
    }
    let mut cells = [Cell::Empty; 81];
    for (i, text) in ranks.iter().enumerate() {
        let rank = 8 - i;
        let mut file = 0usize;
        for ch in text.chars() {
            if let Some(n) = ch.to_digit(10) {
                if n == 0 {
                    return None;
                }
                file += n as usize;
                continue;
            }
            let cell = match ch {
                'b' => Cell::Att,
                'w' => Cell::Def,
                'K' => Cell::King,
                _ => return None,
            };
            if file >= 9 {
                return None;
            }
            cells[rank * 9 + file] = cell;
            file += 1;
        }
        if file != 9 {
            return None;
        }
    }
    if cells.iter().filter(|&&c| c == Cell::King).count() != 1
        || matches!(cells[THRONE], Cell::Att | Cell::Def)
    {
        return None;
    }
    Some(Pos { cells, side, plies })
}

/// Reference reader of a move: `d1d3` or `d1-d3` (file letters of either case), between two
/// different squares of one rank or file; surrounding whitespace ignored.
pub fn ref_move(text: &str) -> Option<(usize, usize)> {
    let sq = |f: char, r: char| -> Option<usize> {
        let file = match f {
            'a'..='i' => f as usize - 'a' as usize,
            'A'..='I' => f as usize - 'A' as usize,
            _ => return None,
        };
        let rank = match r {
            '1'..='9' => r as usize - '1' as usize,
            _ => return None,
        };
        Some(rank * 9 + file)
    };
    let c: Vec<char> = text.trim().chars().collect();
    let (from, to) = match c.len() {
        4 => (sq(c[0], c[1])?, sq(c[2], c[3])?),
        5 if c[2] == '-' => (sq(c[0], c[1])?, sq(c[3], c[4])?),
        _ => return None,
    };
    if from == to || (from % 9 != to % 9 && from / 9 != to / 9) {
        return None;
    }
    Some((from, to))
}

/// Reference for `Rules::set`: the new rules, or `None` if the name or value is not allowed.
/// Names and values are matched without regard to case, surrounding whitespace ignored.
pub fn ref_set(rules: &Rules, name: &str, value: &str) -> Option<Rules> {
    let mut r = *rules;
    let value = value.trim();
    let lower = value.to_ascii_lowercase();
    let check = || match lower.as_str() {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    };
    let spin = |min: u32, max: u32| {
        value
            .parse::<u32>()
            .ok()
            .filter(|v| (min..=max).contains(v))
    };
    let name = name.trim().to_ascii_lowercase();
    match name.as_str() {
        "ruleset" => {
            r = match (lower.as_str(), rules.ruleset) {
                ("ashton", _) => Rules::ashton(),
                ("linnaeus", Ruleset::Ashton) => Rules::default(),
                ("linnaeus", Ruleset::Linnaeus) => r,
                _ => return None,
            };
            return Some(r);
        }
        "kingcapture" => {
            r.king_capture = match lower.as_str() {
                "original" => KingCapture::Original,
                "english" => KingCapture::English,
                _ => return None,
            }
        }
        "firstmove" => {
            r.first_move = match lower.as_str() {
                "attackers" => Side::Attackers,
                "defenders" => Side::Defenders,
                _ => return None,
            }
        }
        "kingarmed" => r.king_armed = check()?,
        "thronehostile" => r.throne_hostile = check()?,
        "kingreentersthrone" => r.king_reenters_throne = check()?,
        "thronepassable" => r.throne_passable = check()?,
        "throneguardcapture" => r.throne_guard_capture = check()?,
        "encirclement" => r.encirclement = check()?,
        "repetitiondraw" => r.repetition_draw = spin(2, 10)?,
        "movelimit" => r.move_limit = spin(0, 10_000)?,
        _ => return None,
    }
    // Under Ashton every option but Ruleset is fixed: only its own value is accepted.
    if rules.ruleset == Ruleset::Ashton && r != *rules {
        return None;
    }
    Some(r)
}
