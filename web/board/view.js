// The board as SVG: squares, throne and camps, coordinates, pieces, the picked piece and its
// legal destinations, the last move, the keyboard cursor and arrows (the engine's best move,
// a hint, the better move of a reviewed one). It can be turned round (the defenders' side at
// the bottom) and takes clicks, taps and drags through pointer events. It knows nothing of the
// rules: the page tells it what to draw and which pieces may be dragged, and it reports.

const NS = 'http://www.w3.org/2000/svg';
const S = 100;          // one square
const M = 34;           // margin for the coordinates
const SIZE = 9 * S + 2 * M;
const FILES = 'abcdefghi';
/** How far (in screen pixels) a pressed piece must travel before it counts as dragged. */
const DRAG_START = 6;

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

export const SQUARES = [];
for (let rank = 9; rank >= 1; rank--) for (const f of FILES) SQUARES.push(`${f}${rank}`);

/** Moves a square by (df, dr) files and ranks; null off the board. */
export function step(square, df, dr) {
  const file = FILES.indexOf(square[0]) + df;
  const rank = Number(square.slice(1)) + dr;
  if (file < 0 || file > 8 || rank < 1 || rank > 9) return null;
  return `${FILES[file]}${rank}`;
}

export class BoardView {
  /** The defenders' side (rank 9) at the bottom. */
  flipped = false;
  /** The piece being pressed or dragged: { from, id, x, y, moved, wasSelected }. */
  #press = null;
  #special = { throne: null, camps: [], corners: [] };
  #last = null;
  /** The keyboard cursor's mode: on when the board was reached with the keyboard (Tab), off
   * after a click or tap on it. Off, the board leaves the arrow keys to the page (they step
   * through the moves). */
  cursorMode = false;

  /**
   * @param {HTMLElement} host  the element to draw into (it gets the keyboard focus)
   * @param {object} handlers
   * @param {(square: string|null) => void} handlers.onSquare  a square was clicked, tapped or
   *   chosen by keyboard (null: Escape)
   * @param {(square: string) => boolean} handlers.canDrag  may the piece there be picked up?
   * @param {(from: string, to: string) => void} handlers.onDrop  a dragged piece was let go
   *   on another square
   * @param {(square: string) => boolean} handlers.isSelected  is that square's piece picked?
   */
  constructor(host, { onSquare, canDrag, onDrop, isSelected }) {
    this.host = host;
    this.onSquare = onSquare;
    this.canDrag = canDrag;
    this.onDrop = onDrop;
    this.isSelected = isSelected;
    this.cursor = 'e5';
    const svg = el('svg', {
      viewBox: `0 0 ${SIZE} ${SIZE}`, class: 'board-svg', role: 'img',
      'aria-label': 'Tablut board',
    });
    this.svg = svg;
    this.#defs(svg);
    el('rect', { x: 0, y: 0, width: SIZE, height: SIZE, rx: 14, class: 'frame' }, svg);
    el('rect', { x: M, y: M, width: 9 * S, height: 9 * S, class: 'wood', fill: 'url(#wood)' }, svg);
    this.fields = el('g', { class: 'fields' }, svg);
    this.marks = el('g', { class: 'marks' }, svg);
    this.#grid(svg);
    this.coords = el('g', { class: 'coords', 'aria-hidden': 'true' }, svg);
    this.pieces = el('g', { class: 'pieces' }, svg);
    this.hints = el('g', { class: 'hints' }, svg);
    this.arrowLayer = el('g', { class: 'arrow-layer' }, svg);
    this.cursorRect = el('rect', { width: S - 8, height: S - 8, rx: 8, class: 'cursor' }, svg);
    this.hits = el('g', { class: 'hits' }, svg);
    for (const sq of SQUARES) el('rect', { width: S, height: S, class: 'hit', 'data-square': sq }, this.hits);
    this.#layout();
    host.appendChild(svg);
    host.addEventListener('keydown', (e) => this.#key(e));
    host.addEventListener('focus', () => this.#setCursorMode(host.matches(':focus-visible')));
    svg.addEventListener('pointerdown', (e) => this.#down(e));
    svg.addEventListener('pointermove', (e) => this.#move(e));
    svg.addEventListener('pointerup', (e) => this.#up(e));
    svg.addEventListener('pointercancel', () => this.#cancel());
    // A drag must not also scroll the page or open a context menu on a long press.
    svg.addEventListener('contextmenu', (e) => e.preventDefault());
  }

  #corner(square) {
    const file = FILES.indexOf(square[0]);
    const rank = Number(square.slice(1));
    return this.flipped
      ? { x: M + (8 - file) * S, y: M + (rank - 1) * S }
      : { x: M + file * S, y: M + (9 - rank) * S };
  }

  #centre(square) {
    const { x, y } = this.#corner(square);
    return { x: x + S / 2, y: y + S / 2 };
  }

  /** The square under a pointer event, or null off the squares. */
  #squareAt(e) {
    const p = this.#point(e);
    const col = Math.floor((p.x - M) / S);
    const row = Math.floor((p.y - M) / S);
    if (col < 0 || col > 8 || row < 0 || row > 8) return null;
    return this.flipped ? `${FILES[8 - col]}${row + 1}` : `${FILES[col]}${9 - row}`;
  }

  /** A pointer event's place in board units. */
  #point(e) {
    const m = this.svg.getScreenCTM();
    if (!m) return { x: -1, y: -1 };
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    return { x: p.x, y: p.y };
  }

  #defs(svg) {
    const defs = el('defs', {}, svg);
    const wood = el('linearGradient', { id: 'wood', x1: 0, y1: 0, x2: 1, y2: 1 }, defs);
    el('stop', { offset: '0%', 'stop-color': '#e2bd7f' }, wood);
    el('stop', { offset: '55%', 'stop-color': '#d4a866' }, wood);
    el('stop', { offset: '100%', 'stop-color': '#c4934f' }, wood);
    const dark = el('radialGradient', { id: 'stone-dark', cx: '35%', cy: '30%', r: '75%' }, defs);
    el('stop', { offset: '0%', 'stop-color': '#6b5a50' }, dark);
    el('stop', { offset: '45%', 'stop-color': '#2c221d' }, dark);
    el('stop', { offset: '100%', 'stop-color': '#0d0907' }, dark);
    const light = el('radialGradient', { id: 'stone-light', cx: '35%', cy: '30%', r: '75%' }, defs);
    el('stop', { offset: '0%', 'stop-color': '#ffffff' }, light);
    el('stop', { offset: '55%', 'stop-color': '#f1e7d2' }, light);
    el('stop', { offset: '100%', 'stop-color': '#c9b690' }, light);
    // Camps: a darker field with a diagonal hatch, readable also without colour vision.
    const hatch = el('pattern', { id: 'camp-hatch', width: 20, height: 20, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' }, defs);
    el('rect', { width: 20, height: 20, fill: '#a47a4a' }, hatch);
    el('line', { x1: 0, y1: 0, x2: 0, y2: 20, stroke: '#8a6238', 'stroke-width': 8 }, hatch);
    for (const kind of ['best', 'hint', 'better']) {
      const marker = el('marker', {
        id: `arrowhead-${kind}`, viewBox: '0 0 10 10', refX: 5, refY: 5, markerWidth: 3.2, markerHeight: 3.2,
        orient: 'auto-start-reverse',
      }, defs);
      el('path', { d: 'M0,0 L10,5 L0,10 z', class: `arrowhead arrowhead-${kind}` }, marker);
    }
  }

  #grid(svg) {
    const g = el('g', { class: 'grid' }, svg);
    for (let i = 0; i <= 9; i++) {
      el('line', { x1: M + i * S, y1: M, x2: M + i * S, y2: M + 9 * S }, g);
      el('line', { x1: M, y1: M + i * S, x2: M + 9 * S, y2: M + i * S }, g);
    }
  }

  /** Places what depends on the board's orientation: coordinates, click areas, fields. */
  #layout() {
    this.coords.replaceChildren();
    for (let i = 0; i < 9; i++) {
      const file = el('text', { x: M + i * S + S / 2, y: SIZE - M / 2 + 1 }, this.coords);
      file.textContent = this.flipped ? FILES[8 - i] : FILES[i];
      const rank = el('text', { x: M / 2, y: M + i * S + S / 2 + 1 }, this.coords);
      rank.textContent = String(this.flipped ? i + 1 : 9 - i);
    }
    for (const hit of this.hits.children) {
      const { x, y } = this.#corner(hit.dataset.square);
      hit.setAttribute('x', x);
      hit.setAttribute('y', y);
    }
    this.setSpecial(this.#special);
    this.#placeCursor();
  }

  /** Turns the board round (true: the defenders' side at the bottom) and redraws it. */
  setFlipped(flipped) {
    if (flipped === this.flipped) return;
    this.flipped = flipped;
    this.host.dataset.flipped = String(flipped);
    this.#layout();
    if (this.#last) this.render(this.#last);
  }

  /** Draws the fixed squares of the rules: throne, camps, corners. */
  setSpecial({ throne, camps = [], corners = [] }) {
    this.#special = { throne, camps, corners };
    this.fields.replaceChildren();
    for (const sq of camps) {
      const { x, y } = this.#corner(sq);
      el('rect', { x, y, width: S, height: S, class: 'camp', fill: 'url(#camp-hatch)', 'data-square': sq }, this.fields);
    }
    for (const sq of corners) {
      const { x, y } = this.#corner(sq);
      el('rect', { x, y, width: S, height: S, class: 'corner', 'data-square': sq }, this.fields);
    }
    if (throne) {
      const { x, y } = this.#corner(throne);
      const g = el('g', { class: 'throne', 'data-square': throne }, this.fields);
      el('rect', { x, y, width: S, height: S }, g);
      el('path', {
        d: `M${x + 14},${y + 14} L${x + S - 14},${y + S - 14} M${x + S - 14},${y + 14} L${x + 14},${y + S - 14}`,
        class: 'throne-cross',
      }, g);
      el('rect', { x: x + 10, y: y + 10, width: S - 20, height: S - 20, class: 'throne-inner' }, g);
    }
  }

  /**
   * Draws a position and its marks.
   * @param {object} s
   * @param {Record<string,string>} s.pieces  square -> 'attacker' | 'defender' | 'king'
   * @param {string|null} s.selected  the picked square
   * @param {string[]} s.targets  legal destinations of the picked piece
   * @param {string|null} s.lastMove  'd1d3'
   * @param {string|null} s.premove  a move entered while the engine thinks, 'd1d3'
   * @param {string[]} s.captured  squares whose pieces the last move took (drawn fading)
   * @param {Record<string,string>} s.capturedPieces  what stood there
   * @param {{move: string, kind: 'best'|'hint'|'better'}[]} s.arrows  moves drawn as arrows
   * @param {{square: string, kind: 'won'|'lost'}|null} s.king  the king's fate at the end
   */
  render(s) {
    this.#last = { ...s, captured: [] }; // a redraw after a flip does not fade pieces again
    const { pieces, selected = null, targets = [], lastMove = null, premove = null, captured = [], capturedPieces = {}, arrows = [], king = null } = s;
    this.#press = null;
    this.marks.replaceChildren();
    if (lastMove) {
      for (const sq of [lastMove.slice(0, 2), lastMove.slice(2)]) {
        const { x, y } = this.#corner(sq);
        el('rect', { x, y, width: S, height: S, class: 'last', 'data-square': sq }, this.marks);
      }
    }
    if (premove) {
      for (const sq of [premove.slice(0, 2), premove.slice(2)]) {
        const { x, y } = this.#corner(sq);
        el('rect', { x, y, width: S, height: S, class: 'premove', 'data-square': sq }, this.marks);
      }
    }
    this.host.dataset.premove = premove ?? '';
    if (selected) {
      const { x, y } = this.#corner(selected);
      el('rect', { x, y, width: S, height: S, class: 'selected', 'data-square': selected }, this.marks);
    }
    this.pieces.replaceChildren();
    for (const [sq, kind] of Object.entries(pieces)) this.#piece(sq, kind);
    for (const sq of captured) {
      const fallen = king?.kind === 'lost' && king.square === sq;
      if (capturedPieces[sq] && !fallen) this.#piece(sq, capturedPieces[sq]).classList.add('taken');
    }
    if (king) {
      const { x, y } = this.#centre(king.square);
      // The captured king stays in view, dimmed, where he fell.
      if (king.kind === 'lost') this.#piece(king.square, 'king').classList.add('fallen');
      el('circle', { cx: x, cy: y, r: 46, class: `king-fate ${king.kind}`, 'data-square': king.square }, this.pieces);
    }
    this.hints.replaceChildren();
    for (const sq of targets) {
      const { x, y } = this.#centre(sq);
      el('circle', { cx: x, cy: y, r: 15, class: 'hint', 'data-square': sq }, this.hints);
    }
    this.setArrows(arrows);
    this.svg.setAttribute('aria-label', this.#describe(pieces, selected, targets));
  }

  #describe(pieces, selected, targets) {
    const list = (kind) => Object.keys(pieces).filter((s) => pieces[s] === kind).join(' ');
    let text = `Tablut board. King ${list('king')}. Defenders ${list('defender')}. Attackers ${list('attacker')}.`;
    if (selected) text += ` Picked ${selected}; it can go to ${targets.join(' ') || 'nowhere'}.`;
    return text;
  }

  #piece(sq, kind) {
    const { x, y } = this.#centre(sq);
    const g = el('g', { class: `piece ${kind}`, 'data-square': sq, 'data-piece': kind, transform: `translate(${x} ${y})` }, this.pieces);
    el('circle', { r: 39, cy: 4, class: 'shadow' }, g);
    el('circle', { r: 38, class: 'body', fill: kind === 'attacker' ? 'url(#stone-dark)' : 'url(#stone-light)' }, g);
    el('circle', { r: 27, class: 'rim' }, g);
    if (kind === 'king') {
      el('path', {
        d: 'M-21,12 L-24,-14 L-11,-2 L0,-20 L11,-2 L24,-14 L21,12 Z',
        class: 'crown',
      }, g);
      el('rect', { x: -21, y: 14, width: 42, height: 7, rx: 2, class: 'crown' }, g);
    }
    return g;
  }

  /** Draws these arrows (and removes the others): the engine's best move (`#best-arrow`), a
   * hint (`#hint-arrow`), the better move of a reviewed one (`#better-arrow`). */
  setArrows(arrows) {
    this.arrowLayer.replaceChildren();
    for (const { move, kind } of arrows) {
      if (!move) continue;
      const a = this.#centre(move.slice(0, 2));
      const b = this.#centre(move.slice(2));
      const len = Math.hypot(b.x - a.x, b.y - a.y);
      const ux = (b.x - a.x) / len;
      const uy = (b.y - a.y) / len;
      el('line', {
        x1: a.x + ux * 20, y1: a.y + uy * 20, x2: b.x - ux * 34, y2: b.y - uy * 34,
        class: `arrow arrow-${kind}`, id: `${kind}-arrow`, 'data-move': move, 'marker-end': `url(#arrowhead-${kind})`,
      }, this.arrowLayer);
    }
  }

  /** Slides the piece on `from` to `to`; resolves when it has arrived. */
  animate(from, to, ms = 260) {
    const piece = this.pieces.querySelector(`.piece[data-square="${from}"]`);
    if (!piece || matchMedia('(prefers-reduced-motion: reduce)').matches) return Promise.resolve();
    const a = this.#centre(from);
    const b = this.#centre(to);
    this.pieces.appendChild(piece); // on top of the others while it moves
    piece.classList.add('moving');
    return new Promise((resolve) => {
      const t0 = performance.now();
      const frame = (now) => {
        const t = Math.min(1, (now - t0) / ms);
        const e = t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2;
        piece.setAttribute('transform', `translate(${a.x + (b.x - a.x) * e} ${a.y + (b.y - a.y) * e})`);
        if (t < 1) requestAnimationFrame(frame);
        else resolve();
      };
      requestAnimationFrame(frame);
    });
  }

  // ------------------------------------------------ pointer: click, tap and drag

  #down(e) {
    // A right click cancels: it puts a picked piece back (and drops a premove).
    if (e.button === 2 && !this.#press) {
      this.onSquare(null);
      return;
    }
    if (e.button !== 0 || this.#press) return;
    this.#setCursorMode(false);
    const sq = this.#squareAt(e);
    if (!sq) return;
    this.cursor = sq;
    this.#placeCursor();
    if (!this.canDrag(sq)) {
      this.onSquare(sq);
      return;
    }
    // A press on a piece that may move picks it up at once (its destinations show); letting
    // go elsewhere after moving drops it there, letting go where it was keeps it picked (a
    // click), and a click on the piece already picked puts it back.
    const wasSelected = this.isSelected(sq);
    if (!wasSelected) this.onSquare(sq);
    this.#press = { from: sq, id: e.pointerId, x: e.clientX, y: e.clientY, moved: false, wasSelected };
    this.svg.setPointerCapture?.(e.pointerId);
    e.preventDefault();
  }

  #move(e) {
    const p = this.#press;
    if (!p || e.pointerId !== p.id) return;
    if (!p.moved && Math.hypot(e.clientX - p.x, e.clientY - p.y) < DRAG_START) return;
    const piece = this.pieces.querySelector(`.piece[data-square="${p.from}"]:not(.taken)`);
    if (!piece) return;
    if (!p.moved) {
      p.moved = true;
      this.pieces.appendChild(piece);
      piece.classList.add('dragging');
      this.host.dataset.dragging = p.from;
    }
    const { x, y } = this.#point(e);
    piece.setAttribute('transform', `translate(${x} ${y}) scale(1.12)`);
  }

  #up(e) {
    const p = this.#press;
    if (!p || e.pointerId !== p.id) return;
    this.#press = null;
    delete this.host.dataset.dragging;
    const to = this.#squareAt(e);
    if (p.moved && to && to !== p.from) {
      this.onDrop(p.from, to);
      return;
    }
    if (p.moved) {
      this.#restore();
      return;
    }
    if (p.wasSelected) this.onSquare(p.from);
  }

  #cancel() {
    if (!this.#press) return;
    this.#press = null;
    delete this.host.dataset.dragging;
    this.#restore();
  }

  /** Puts a dragged piece back where it stands. */
  #restore() {
    if (this.#last) this.render(this.#last);
  }

  // ------------------------------------------------ keyboard

  #placeCursor() {
    const { x, y } = this.#corner(this.cursor);
    this.cursorRect.setAttribute('x', x + 4);
    this.cursorRect.setAttribute('y', y + 4);
    this.host.dataset.cursor = this.cursor;
  }

  #setCursorMode(on) {
    this.cursorMode = on;
    this.host.dataset.keys = on ? 'cursor' : 'moves';
  }

  /** The board's keys. The arrows move the cursor only in cursor mode; Enter, Space and Escape
   * always act on the board (Enter and Space turn cursor mode on). A key the board takes has
   * its default prevented: the page acts only on the others. */
  #key(e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    if (e.key in moves && this.cursorMode) {
      // The arrows move the cursor as the player sees the board.
      const sign = this.flipped ? -1 : 1;
      const [df, dr] = moves[e.key];
      const next = step(this.cursor, sign * df, sign * dr);
      if (next) {
        this.cursor = next;
        this.#placeCursor();
      }
      e.preventDefault();
    } else if (e.key === 'Enter' || e.key === ' ') {
      this.#setCursorMode(true);
      this.onSquare(this.cursor);
      e.preventDefault();
    } else if (e.key === 'Escape') {
      this.onSquare(null);
      e.preventDefault();
    }
  }
}
