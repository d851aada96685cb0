// What a first-time player meets beside the board: the levels as a few named buttons (every
// level stays in the picker beside them), the sound switch, and three lines on how the game
// under the chosen rules is won and how pieces are taken.
import { LEVEL_BUTTONS, levelLabel } from './levels.js';
import { howToPlay } from './howto.js';

const $ = (id) => document.getElementById(id);

/**
 * Makes the level buttons and wires them and the sound switch.
 * @param {object} o
 * @param {{levels: {level: number, elo: number}[]}} o.levels  the package's levels()
 * @param {import('./sound.js').Sound} o.sound
 * @param {(level: number) => void} o.onLevel  a button chose this level
 */
export function setUpNewcomer({ levels, sound, onLevel }) {
  const box = $('level-buttons');
  for (const { name, level } of LEVEL_BUTTONS) {
    const info = levels.levels.find((l) => l.level === level);
    if (!info) continue;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'level-button';
    button.dataset.level = String(level);
    button.textContent = name;
    button.title = `Level ${levelLabel(info)}`;
    button.setAttribute('aria-pressed', 'false');
    button.addEventListener('click', () => onLevel(level));
    box.appendChild(button);
  }
  $('sound').addEventListener('click', () => {
    sound.setMuted(!sound.muted);
    renderSound(sound);
  });
}

function renderSound(sound) {
  const button = $('sound');
  button.setAttribute('aria-pressed', String(!sound.muted));
  button.title = `Sounds of moves and captures (${sound.muted ? 'off' : 'on'})`;
}

/** Marks the button of the level chosen, writes the rules' three lines, shows the sound
 * switch's state. */
export function renderNewcomer({ level, rules, sound }) {
  for (const button of $('level-buttons').children) {
    button.setAttribute('aria-pressed', String(Number(button.dataset.level) === level));
  }
  const text = howToPlay(rules);
  $('howto-win').textContent = text.win;
  $('howto-capture').textContent = text.capture;
  $('howto-king').textContent = text.king;
  const select = $('rules');
  $('howto-rules').textContent = select.selectedOptions[0] ? `(${select.selectedOptions[0].textContent})` : '';
  renderSound(sound);
}
