// The board's sounds, made with the Web Audio API (no sound files): a soft knock for a move and
// a sharper double knock for a capture. A switch mutes them; the choice is kept in this
// browser. The audio context is made at the first sound, which follows a click or a tap, so
// the browser lets it play.

/** Where the switch is kept (apart from the game, so that a new game never resets it). */
const STORE_KEY = 'konakis-sound';

/**
 * Each sound as the tones it is made of: the start after the sound begins (s), the pitch
 * (Hz) at the start and the end of the tone, its length (s) and its loudness (0..1).
 */
export const SOUNDS = {
  move: [{ at: 0, from: 320, to: 180, length: 0.09, gain: 0.35 }],
  capture: [
    { at: 0, from: 520, to: 260, length: 0.08, gain: 0.4 },
    { at: 0.07, from: 300, to: 120, length: 0.14, gain: 0.45 },
  ],
};

export class Sound {
  /** @type {AudioContext|null} */
  #context = null;
  #muted = false;

  constructor() {
    try {
      this.#muted = localStorage.getItem(STORE_KEY) === 'off';
    } catch {
      // No storage (a private window): sound is on, and the switch lasts for this visit.
    }
  }

  get muted() {
    return this.#muted;
  }

  /** Mutes or unmutes, and keeps the choice. */
  setMuted(muted) {
    this.#muted = muted;
    try {
      localStorage.setItem(STORE_KEY, muted ? 'off' : 'on');
    } catch {
      // As in the constructor.
    }
  }

  /** Plays the sound of a move: 'capture' when it took pieces, else 'move'. Nothing when
   * muted, or where the browser has no Web Audio. */
  play(kind) {
    if (this.#muted || !(kind in SOUNDS)) return;
    const ctx = this.#audio();
    if (!ctx) return;
    const now = ctx.currentTime;
    for (const tone of SOUNDS[kind]) {
      const start = now + tone.at;
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = 'triangle';
      osc.frequency.setValueAtTime(tone.from, start);
      osc.frequency.exponentialRampToValueAtTime(tone.to, start + tone.length);
      // A quick attack and an exponential fade: a knock, not a beep.
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(tone.gain, start + 0.005);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + tone.length);
      osc.connect(gain);
      gain.connect(ctx.destination);
      osc.start(start);
      osc.stop(start + tone.length + 0.02);
    }
  }

  #audio() {
    // Before the first click, tap or key on the page the browser would not let a context
    // start (and warns): a move then is silent.
    if (globalThis.navigator?.userActivation?.hasBeenActive === false) return null;
    if (!this.#context) {
      const Context = globalThis.AudioContext ?? globalThis.webkitAudioContext;
      if (!Context) return null;
      this.#context = new Context();
    }
    if (this.#context.state === 'suspended') this.#context.resume().catch(() => {});
    return this.#context;
  }
}
