"""Type stubs of the extension module konakis._konakis (crates/python)."""

from typing import Any, Callable, Dict, List, Literal, Optional, Sequence, Tuple, Union

from typing_extensions import Self, disjoint_base

__version__: str
START_POSITION: str

OptionValue = Union[bool, int, str]

class KonakisError(Exception):
    """Every error of the konakis package; ``reason`` names it in a word."""

    reason: str

class MoveSyntaxError(KonakisError):
    """Text that is not a move or not a square (reason: ``notation``, ``not-a-square``,
    ``same-square``, ``not-straight``)."""

class IllegalMoveError(KonakisError):
    """A well-formed move the position does not allow (reason: ``no-piece``, ``wrong-side``,
    ``occupied``, ``throne``, ``camp``, ``blocked``, ...)."""

    move: str

class GameOverError(KonakisError):
    """A move after the end of the game (reason: how it ended)."""

    status: str

class PositionError(KonakisError):
    """A bad position string (reason: ``rank-count``, ``bad-character``, ``no-king``, ...)."""

class RulesError(KonakisError):
    """An unknown preset or option, or a value it does not allow."""

class RecordError(KonakisError):
    """An OpenTafl record that cannot be read or written."""

class SearchError(KonakisError):
    """The in-process engine refused a request (reason: ``option``, ``search``, ``review``,
    ``engine``)."""

class Rules:
    """The rules of a game: a preset (``"original"``, ``"english"``, ``"taflhub"``,
    ``"encyclopedia"``, ``"ashton"``), or the reference rules, with options set by name."""

    def __init__(self, preset: Optional[str] = None, **options: OptionValue) -> None: ...
    def with_options(self, **options: OptionValue) -> Rules:
        """A copy with the options given changed."""
    def get(self, name: str) -> str:
        """The value of one option, as text."""
    def options(self) -> Dict[str, str]:
        """Every option's value as text, in table order."""
    def changed(self) -> List[Tuple[str, str]]:
        """The options whose value is not the default, as (name, value)."""
    def camps(self) -> List[str]:
        """The camp squares (Ashton's; none under other rules)."""
    @property
    def repetition_draw(self) -> int:
        """The occurrence of a position that draws."""
    @property
    def move_limit(self) -> Optional[int]:
        """Plies after which the game is drawn, or None for no limit."""
    @staticmethod
    def option_table() -> List[Dict[str, Any]]:
        """Every rule option: name, kind, default, min/max or values, description."""
    @staticmethod
    def presets() -> List[Dict[str, Any]]:
        """Every preset: id, name, description, options."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Status:
    """The status of a game."""

    @property
    def over(self) -> bool: ...
    @property
    def winner(self) -> Optional[Literal["attackers", "defenders"]]: ...
    @property
    def reason(
        self,
    ) -> Optional[
        Literal["escape", "capture", "encirclement", "no-move", "repetition", "move-limit"]
    ]: ...
    @property
    def text(self) -> str: ...
    def score_for(self, side: str) -> int:
        """1 if ``side`` won, -1 if it lost, 0 for a draw or a game going on."""

class Game:
    """A game of Tablut: the rules, the start position, the moves played, the referee."""

    def __init__(
        self,
        rules: Optional[Rules] = None,
        position: Optional[str] = None,
        moves: Sequence[str] = ...,
    ) -> None: ...
    @staticmethod
    def from_otg(text: str) -> Game:
        """The first game of an OpenTafl record."""
    @staticmethod
    def all_from_otg(text: str) -> List[Game]:
        """Every game of an OpenTafl file's text."""
    def to_otg(self, tags: Optional[Sequence[Tuple[str, str]]] = None) -> str:
        """The game as an OpenTafl record."""
    def copy(self) -> Game: ...
    def __copy__(self) -> Game: ...
    def __deepcopy__(self, memo: Any) -> Game: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def position(self) -> str: ...
    @property
    def start_position(self) -> str: ...
    @property
    def side_to_move(self) -> Literal["attackers", "defenders"]: ...
    @property
    def plies(self) -> int: ...
    @property
    def moves(self) -> List[str]: ...
    @property
    def key(self) -> int: ...
    @property
    def status(self) -> Status: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def occurrences(self) -> int: ...
    @property
    def plies_left(self) -> Optional[int]: ...
    @property
    def king(self) -> Optional[str]: ...
    @property
    def king_open_lines(self) -> int: ...
    def piece_at(self, square: str) -> Optional[Literal["attacker", "defender", "king"]]: ...
    def board_bytes(self) -> bytes:
        """81 bytes, index rank * 9 + file: 0 empty, 1 attacker, 2 defender, 3 king."""
    def legal_moves(self, from_square: Optional[str] = None) -> List[str]: ...
    def legal_actions(self) -> List[int]:
        """The legal moves as from_index * 81 + to_index."""
    def is_legal(self, mv: str) -> bool: ...
    def play(self, mv: str) -> List[str]:
        """Plays a move; returns the captured squares."""
    def play_action(self, action: int) -> List[str]: ...
    def undo(self) -> Optional[str]: ...
    def perft(self, depth: int) -> int: ...
    def divide(self, depth: int) -> List[Tuple[str, int]]: ...
    def playout(self, seed: int = 0, max_plies: Optional[int] = None) -> List[str]:
        """Random legal moves, in Rust, until the end or max_plies; returns them."""

def random_playouts(
    rules: Optional[Rules] = None,
    games: int = 1,
    seed: int = 0,
    max_plies: Optional[int] = None,
) -> Tuple[int, int, int, int]:
    """(moves, attackers_wins, defenders_wins, draws) of random games played in Rust."""

# A score of NativeEngine.search's lines: ("cp", n) or ("mate", n).
_ScoreTuple = Tuple[Literal["cp", "mate"], int]

@disjoint_base
class NativeEngine:
    """The Konakis engine in-process; options by name as the protocol's setoption.
    ``konakis.NativeEngine`` subclasses it with the protocol driver's methods."""

    def __new__(cls, **options: OptionValue) -> Self: ...
    def set_option(self, name: str, value: Optional[OptionValue] = None) -> None: ...
    @staticmethod
    def option_table() -> List[Dict[str, Any]]: ...
    def search(
        self,
        game: Game,
        *,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        time: Optional[float] = None,
        mate: Optional[int] = None,
        multipv: Optional[int] = None,
        attackers_clock: Optional[float] = None,
        defenders_clock: Optional[float] = None,
        attackers_inc: Optional[float] = None,
        defenders_inc: Optional[float] = None,
        infinite: bool = False,
        on_info: Optional[Callable[[Dict[str, Any]], object]] = None,
    ) -> Dict[str, Any]:
        """{"move", "ponder", "lines", "nodes", "status"}; the GIL is released meanwhile, and
        Ctrl-C stops the search with KeyboardInterrupt."""
    def stop(self) -> None:
        """Stops the running search or review; safe from any thread."""
    def review_json(
        self,
        game: Game,
        *,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        time: Optional[float] = None,
        thresholds: Optional[Tuple[float, float, float]] = None,
    ) -> str: ...
    @staticmethod
    def win_chances(game: Game, score: _ScoreTuple) -> Tuple[int, int, int]: ...
    def clear(self) -> None: ...

def run_protocol() -> None:
    """The line protocol on stdin and stdout until ``quit`` (the ``konakis`` command)."""

def run_otep(
    *,
    movetime: int = 5000,
    threads: int = 1,
    hash: int = 64,
    max_time: Optional[int] = None,
    skill: Optional[int] = None,
    elo: Optional[int] = None,
) -> None:
    """OpenTafl's engine protocol on stdin and stdout (``konakis otep``)."""
