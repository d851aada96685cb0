// The review's chart: the attackers' expected score after every move of the game (0 at the
// bottom: the defenders win; 1 at the top: the attackers win), the marked moves as dots, the
// move looked at as a line. A click or tap goes to the move under it.

const NS = 'http://www.w3.org/2000/svg';
const W = 600;
const H = 140;
const PAD = 6;

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

export class Chart {
  #points = [];

  /**
   * @param {HTMLElement} host
   * @param {(ply: number) => void} onPick  the position after this many moves was picked
   */
  constructor(host, onPick) {
    this.svg = el('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart-svg' });
    host.appendChild(this.svg);
    this.svg.addEventListener('click', (e) => {
      if (this.#points.length < 2) return;
      const box = this.svg.getBoundingClientRect();
      const share = (e.clientX - box.left) / box.width;
      const ply = Math.round(share * (this.#points.length - 1));
      onPick(Math.max(0, Math.min(this.#points.length - 1, ply)));
    });
  }

  #x(i) {
    return PAD + (i * (W - 2 * PAD)) / Math.max(1, this.#points.length - 1);
  }

  #y(share) {
    return PAD + (1 - share) * (H - 2 * PAD);
  }

  /**
   * Draws the chart.
   * @param {number[]} shares  the attackers' expected score at ply 0, 1, ... (0..1)
   * @param {{ply: number, verdict: string}[]} marks  the marked moves (ply: after the move)
   * @param {number} at  the ply looked at
   */
  render(shares, marks, at) {
    this.#points = shares;
    this.svg.replaceChildren();
    el('rect', { x: 0, y: 0, width: W, height: H, class: 'chart-bg' }, this.svg);
    if (shares.length < 2) return;
    // The attackers' area below the curve, the defenders' above it.
    const line = shares.map((s, i) => `${this.#x(i).toFixed(1)},${this.#y(s).toFixed(1)}`);
    el('path', {
      d: `M${this.#x(0)},${H} L${line.join(' L')} L${this.#x(shares.length - 1)},${H} Z`,
      class: 'chart-area',
    }, this.svg);
    el('line', { x1: 0, y1: this.#y(0.5), x2: W, y2: this.#y(0.5), class: 'chart-mid' }, this.svg);
    el('polyline', { points: line.join(' '), class: 'chart-line' }, this.svg);
    el('line', { x1: this.#x(at), y1: 0, x2: this.#x(at), y2: H, class: 'chart-now', 'data-ply': at }, this.svg);
    for (const { ply, verdict } of marks) {
      el('circle', {
        cx: this.#x(ply), cy: this.#y(shares[ply]), r: 5, class: `chart-mark ${verdict}`, 'data-ply': ply,
      }, this.svg);
    }
  }
}
