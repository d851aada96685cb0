"""Type stubs of the extension module konakis._konakis (crates/python)."""

from typing import Any, Callable, Dict, Iterator, List, Literal, Optional, Sequence, Tuple, Union

from typing_extensions import Self, disjoint_base, final

__all__ = [
    "__version__",
    "START_POSITION",
    "Rules",
    "Game",
    "Status",
    "Outcome",
    "LegalMoves",
    "NativeEngine",
    "random_playouts",
    "action_of",
    "move_of",
    "KonakisError",
    "MoveSyntaxError",
    "IllegalMoveError",
    "GameOverError",
    "PositionError",
    "RulesError",
    "RecordError",
    "SearchError",
    "ArgumentError",
    "run_protocol",
    "run_otep",
]

__version__: str
START_POSITION: str

# Names for types, private so that stubtest does not look for them in the module.
_OptionValue = Union[bool, int, str]
_Score = Tuple[Literal["cp", "mate"], int]
_Side = Literal["attackers", "defenders"]
_Reason = Literal["escape", "capture", "encirclement", "no-move", "repetition", "move-limit"]

class KonakisError(Exception):
    """Every error of the konakis package; ``reason`` names it in a word."""

    reason: str

class MoveSyntaxError(KonakisError):
    """Text that is not a move or not a square (reason: ``notation``, ``not-a-square``,
    ``same-square``, ``not-straight``), or a number that is not an action
    (``not-an-action``)."""

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

class ArgumentError(KonakisError, ValueError):
    """A number out of its range, or an argument value the function does not take (reason:
    ``negative``, ``too-large``, ``too-small``, ``not-a-side``, ``not-a-status``, ...)."""

@final
class Rules:
    """The rules of a game: a preset (``"original"``, ``"english"``, ``"taflhub"``,
    ``"encyclopedia"``, ``"ashton"``), or the reference rules, with options set by name.
    Compared and hashed by value; they pickle."""

    def __new__(cls, preset: Optional[str] = None, **options: _OptionValue) -> Rules: ...
    def with_options(self, **options: _OptionValue) -> Rules:
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
    def __getnewargs_ex__(self) -> Tuple[Tuple[None], Dict[str, str]]: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Status:
    """The status of a game; also ``Outcome``, what ``Game.outcome()`` returns. Compared and
    hashed by value; it pickles."""

    def __new__(cls, reason: Optional[_Reason] = None, winner: Optional[str] = None) -> Status: ...
    @property
    def over(self) -> bool: ...
    @property
    def winner(self) -> Optional[_Side]: ...
    @property
    def reason(self) -> Optional[_Reason]: ...
    @property
    def termination(self) -> Optional[_Reason]:
        """``reason`` under python-chess's name."""
    @property
    def text(self) -> str: ...
    def score_for(self, side: str) -> int:
        """1 if ``side`` won, -1 if it lost, 0 for a draw or a game going on."""
    def __getnewargs__(self) -> Tuple[Optional[_Reason], Optional[_Side]]: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

Outcome = Status

@final
class LegalMoves:
    """The legal moves of a game's current position, a live view: iterable, sized, indexable,
    ``in`` takes move text; calling it gives a list, all moves or those from one square."""

    def __call__(self, from_square: Optional[str] = None) -> List[str]: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[str]: ...
    def __getitem__(self, index: int, /) -> str: ...
    def __contains__(self, mv: object, /) -> bool: ...

@final
class Game:
    """A game of Tablut: the rules, the start position, the moves played, the referee. Equal
    games have the same rules, start and moves; a game has no hash; it pickles."""

    def __new__(
        cls,
        rules: Optional[Rules] = None,
        position: Optional[str] = None,
        moves: Sequence[str] = ...,
    ) -> Game: ...
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
    def __getnewargs__(self) -> Tuple[Rules, str, List[str]]: ...
    def __eq__(self, other: object, /) -> bool: ...
    __hash__: None  # type: ignore[assignment]
    @property
    def rules(self) -> Rules: ...
    @property
    def position(self) -> str: ...
    @property
    def start_position(self) -> str: ...
    @property
    def side_to_move(self) -> _Side: ...
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
    def is_game_over(self) -> bool: ...
    def outcome(self) -> Optional[Status]:
        """The status once the game has ended, None while it goes on."""
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
    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves: iterate, len(), ``in``, index, or call for a list."""
    def legal_actions(self) -> List[int]:
        """The legal moves as from_index * 81 + to_index."""
    def is_legal(self, mv: str) -> bool: ...
    def play(self, mv: str) -> List[str]:
        """Plays a move; returns the captured squares."""
    def push(self, mv: str) -> List[str]:
        """``play`` under python-chess's name."""
    def push_uci(self, mv: str) -> str:
        """Plays a move; returns it as the game writes it."""
    def play_action(self, action: int) -> List[str]: ...
    def undo(self) -> Optional[str]: ...
    def pop(self) -> str:
        """Takes the last move back; IndexError at the start."""
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

def action_of(mv: str) -> int:
    """The action (from_index * 81 + to_index) of a move in text."""

def move_of(action: int) -> str:
    """The move in text of an action from 0 to 6560."""

@disjoint_base
class NativeEngine:
    """The Konakis engine in-process; options by name as the protocol's setoption.
    ``konakis.NativeEngine`` subclasses it with the protocol driver's methods."""

    def __new__(cls, **options: _OptionValue) -> Self: ...
    def set_option(self, name: str, value: Optional[_OptionValue] = None) -> None: ...
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
    def win_chances(game: Game, score: _Score) -> Tuple[int, int, int]: ...
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
