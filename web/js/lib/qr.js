// QR codes (ISO/IEC 18004) for the PIX copia-e-cola and the check-in payload: byte mode (UTF-8),
// error correction level M, the smallest version 1–40 that fits, the mask with the lowest
// penalty. Drawn as one SVG path, so it stays sharp at any size and needs no canvas or library.

import { svg } from './dom.js';

// Level M, by version (index 0 unused): error-correction codewords per block, number of blocks.
const ECC_PER_BLOCK = [-1, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26,
  26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28];
const BLOCKS = [-1, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16,
  17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49];
const FORMAT_BITS_M = 0; // the two bits of level M in the format information

/** Modules left for data and error correction once the function patterns are placed. */
function rawDataModules(version) {
  let result = (16 * version + 128) * version + 64;
  if (version >= 2) {
    const numAlign = Math.floor(version / 7) + 2;
    result -= (25 * numAlign - 10) * numAlign - 55;
    if (version >= 7) result -= 36;
  }
  return result;
}

/** Data codewords a version holds at level M. */
export function dataCapacity(version) {
  return Math.floor(rawDataModules(version) / 8) - ECC_PER_BLOCK[version] * BLOCKS[version];
}

/** Largest payload in bytes of a version in byte mode at level M. */
export function byteCapacity(version) {
  const countBits = version < 10 ? 8 : 16;
  return Math.floor((dataCapacity(version) * 8 - 4 - countBits) / 8);
}

function alignmentPositions(version, size) {
  if (version === 1) return [];
  const numAlign = Math.floor(version / 7) + 2;
  const step = Math.floor((version * 8 + numAlign * 3 + 5) / (numAlign * 4 - 4)) * 2;
  const result = [6];
  for (let pos = size - 7; result.length < numAlign; pos -= step) result.splice(1, 0, pos);
  return result;
}

// ---- Reed–Solomon over GF(256), polynomial 0x11D ----------------------------------------------

function gfMultiply(x, y) {
  let z = 0;
  for (let i = 7; i >= 0; i -= 1) {
    z = (z << 1) ^ ((z >>> 7) * 0x11d);
    z ^= ((y >>> i) & 1) * x;
  }
  return z & 0xff;
}

function rsDivisor(degree) {
  const result = new Array(degree).fill(0);
  result[degree - 1] = 1;
  let root = 1;
  for (let i = 0; i < degree; i += 1) {
    for (let j = 0; j < result.length; j += 1) {
      result[j] = gfMultiply(result[j], root);
      if (j + 1 < result.length) result[j] ^= result[j + 1];
    }
    root = gfMultiply(root, 0x02);
  }
  return result;
}

function rsRemainder(data, divisor) {
  const result = divisor.map(() => 0);
  for (const b of data) {
    const factor = b ^ result.shift();
    result.push(0);
    divisor.forEach((coef, i) => { result[i] ^= gfMultiply(coef, factor); });
  }
  return result;
}

// ---- the symbol ---------------------------------------------------------------------------------

class Symbol {
  constructor(version) {
    this.version = version;
    this.size = version * 4 + 17;
    this.modules = Array.from({ length: this.size }, () => new Array(this.size).fill(false));
    this.isFunction = Array.from({ length: this.size }, () => new Array(this.size).fill(false));
  }

  set(x, y, dark) {
    this.modules[y][x] = dark;
    this.isFunction[y][x] = true;
  }

  drawFunctionPatterns() {
    const { size } = this;
    for (let i = 0; i < size; i += 1) {
      this.set(6, i, i % 2 === 0);
      this.set(i, 6, i % 2 === 0);
    }
    this.drawFinder(3, 3);
    this.drawFinder(size - 4, 3);
    this.drawFinder(3, size - 4);
    const align = alignmentPositions(this.version, size);
    const n = align.length;
    for (let i = 0; i < n; i += 1) {
      for (let j = 0; j < n; j += 1) {
        // Not over the three finder patterns.
        if ((i === 0 && j === 0) || (i === 0 && j === n - 1) || (i === n - 1 && j === 0)) continue;
        this.drawAlignment(align[i], align[j]);
      }
    }
    this.drawFormat(0); // reserves the area; redrawn with the chosen mask
    this.drawVersion();
  }

  drawFinder(cx, cy) {
    for (let dy = -4; dy <= 4; dy += 1) {
      for (let dx = -4; dx <= 4; dx += 1) {
        const dist = Math.max(Math.abs(dx), Math.abs(dy));
        const x = cx + dx;
        const y = cy + dy;
        if (x >= 0 && x < this.size && y >= 0 && y < this.size) this.set(x, y, dist !== 2 && dist !== 4);
      }
    }
  }

  drawAlignment(cx, cy) {
    for (let dy = -2; dy <= 2; dy += 1) {
      for (let dx = -2; dx <= 2; dx += 1) this.set(cx + dx, cy + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
    }
  }

  drawFormat(mask) {
    const data = (FORMAT_BITS_M << 3) | mask;
    let rem = data;
    for (let i = 0; i < 10; i += 1) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
    const bits = ((data << 10) | rem) ^ 0x5412;
    const bit = (i) => ((bits >>> i) & 1) !== 0;
    const { size } = this;
    for (let i = 0; i <= 5; i += 1) this.set(8, i, bit(i));
    this.set(8, 7, bit(6));
    this.set(8, 8, bit(7));
    this.set(7, 8, bit(8));
    for (let i = 9; i < 15; i += 1) this.set(14 - i, 8, bit(i));
    for (let i = 0; i < 8; i += 1) this.set(size - 1 - i, 8, bit(i));
    for (let i = 8; i < 15; i += 1) this.set(8, size - 15 + i, bit(i));
    this.set(8, size - 8, true); // the dark module
  }

  drawVersion() {
    if (this.version < 7) return;
    let rem = this.version;
    for (let i = 0; i < 12; i += 1) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25);
    const bits = (this.version << 12) | rem;
    for (let i = 0; i < 18; i += 1) {
      const dark = ((bits >>> i) & 1) !== 0;
      const a = this.size - 11 + (i % 3);
      const b = Math.floor(i / 3);
      this.set(a, b, dark);
      this.set(b, a, dark);
    }
  }

  /** The zigzag placement of the codewords, two columns at a time, right to left. */
  drawCodewords(codewords) {
    const { size } = this;
    let i = 0;
    for (let right = size - 1; right >= 1; right -= 2) {
      if (right === 6) right = 5;
      for (let vert = 0; vert < size; vert += 1) {
        for (let j = 0; j < 2; j += 1) {
          const x = right - j;
          const upward = ((right + 1) & 2) === 0;
          const y = upward ? size - 1 - vert : vert;
          if (!this.isFunction[y][x] && i < codewords.length * 8) {
            this.modules[y][x] = ((codewords[i >>> 3] >>> (7 - (i & 7))) & 1) !== 0;
            i += 1;
          }
        }
      }
    }
  }

  applyMask(mask) {
    const { size } = this;
    for (let y = 0; y < size; y += 1) {
      for (let x = 0; x < size; x += 1) {
        if (this.isFunction[y][x]) continue;
        let invert;
        switch (mask) {
          case 0: invert = (x + y) % 2 === 0; break;
          case 1: invert = y % 2 === 0; break;
          case 2: invert = x % 3 === 0; break;
          case 3: invert = (x + y) % 3 === 0; break;
          case 4: invert = (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0; break;
          case 5: invert = ((x * y) % 2) + ((x * y) % 3) === 0; break;
          case 6: invert = (((x * y) % 2) + ((x * y) % 3)) % 2 === 0; break;
          default: invert = (((x + y) % 2) + ((x * y) % 3)) % 2 === 0; break;
        }
        if (invert) this.modules[y][x] = !this.modules[y][x];
      }
    }
  }

  /** The penalty of ISO/IEC 18004 §7.8.3: runs, 2×2 blocks, finder-like patterns, balance. */
  penalty() {
    const { size, modules } = this;
    let result = 0;
    const finderLike = (line) => {
      let count = 0;
      for (let i = 0; i + 7 <= line.length; i += 1) {
        if (line[i] && !line[i + 1] && line[i + 2] && line[i + 3] && line[i + 4] && !line[i + 5] && line[i + 6]) {
          const before = i >= 4 && !line[i - 1] && !line[i - 2] && !line[i - 3] && !line[i - 4];
          const after = i + 11 <= line.length && !line[i + 7] && !line[i + 8] && !line[i + 9] && !line[i + 10];
          // Near the edge the quiet zone counts as light.
          const beforeEdge = i < 4 && line.slice(0, i).every((m) => !m);
          const afterEdge = i + 11 > line.length && line.slice(i + 7).every((m) => !m);
          if (before || after || beforeEdge || afterEdge) count += 1;
        }
      }
      return count;
    };
    const runs = (line) => {
      let score = 0;
      let run = 1;
      for (let i = 1; i <= line.length; i += 1) {
        if (i < line.length && line[i] === line[i - 1]) {
          run += 1;
        } else {
          if (run >= 5) score += 3 + (run - 5);
          run = 1;
        }
      }
      return score;
    };
    for (let y = 0; y < size; y += 1) {
      const row = modules[y];
      const col = modules.map((r) => r[y]);
      result += runs(row) + runs(col);
      result += 40 * (finderLike(row) + finderLike(col));
    }
    for (let y = 0; y < size - 1; y += 1) {
      for (let x = 0; x < size - 1; x += 1) {
        const c = modules[y][x];
        if (c === modules[y][x + 1] && c === modules[y + 1][x] && c === modules[y + 1][x + 1]) result += 3;
      }
    }
    let dark = 0;
    for (const row of modules) for (const m of row) if (m) dark += 1;
    const total = size * size;
    result += Math.floor(Math.abs(dark * 20 - total * 10) / total) * 10;
    return result;
  }
}

function utf8(text) {
  return Array.from(new TextEncoder().encode(text));
}

/**
 * encodeQR('00020101…') → {version, size, mask, modules: boolean[size][size]} (true = dark).
 * Throws a RangeError when the text does not fit version 40. `mask` (0–7) skips the choice.
 */
export function encodeQR(text, { minVersion = 1, mask: forcedMask = null } = {}) {
  const bytes = utf8(text);
  let version = minVersion;
  while (version <= 40 && bytes.length > byteCapacity(version)) version += 1;
  if (version > 40) throw new RangeError('o texto é longo demais para um QR code');

  // Mode indicator 0100 (byte), character count, data, terminator, padding.
  const bits = [];
  const push = (value, length) => { for (let i = length - 1; i >= 0; i -= 1) bits.push((value >>> i) & 1); };
  push(0b0100, 4);
  push(bytes.length, version < 10 ? 8 : 16);
  bytes.forEach((b) => push(b, 8));
  const capacityBits = dataCapacity(version) * 8;
  push(0, Math.min(4, capacityBits - bits.length));
  push(0, (8 - (bits.length % 8)) % 8);
  const data = [];
  for (let i = 0; i < bits.length; i += 8) data.push(bits.slice(i, i + 8).reduce((acc, b) => (acc << 1) | b, 0));
  for (let pad = 0xec; data.length < dataCapacity(version); pad ^= 0xec ^ 0x11) data.push(pad);

  // Split into blocks (the short ones first), add error correction, interleave.
  const numBlocks = BLOCKS[version];
  const eccLen = ECC_PER_BLOCK[version];
  const rawCodewords = Math.floor(rawDataModules(version) / 8);
  const numShort = numBlocks - (rawCodewords % numBlocks);
  const shortLen = Math.floor(rawCodewords / numBlocks);
  const divisor = rsDivisor(eccLen);
  const blocks = [];
  for (let i = 0, k = 0; i < numBlocks; i += 1) {
    const dataLen = shortLen - eccLen + (i < numShort ? 0 : 1);
    const chunk = data.slice(k, k + dataLen);
    k += dataLen;
    const ecc = rsRemainder(chunk, divisor);
    if (i < numShort) chunk.push(null); // keeps the columns aligned while interleaving
    blocks.push(chunk.concat(ecc));
  }
  const codewords = [];
  for (let i = 0; i < blocks[0].length; i += 1) {
    blocks.forEach((block, j) => {
      if (i !== shortLen - eccLen || j >= numShort) codewords.push(block[i]);
    });
  }

  const symbol = new Symbol(version);
  symbol.drawFunctionPatterns();
  symbol.drawCodewords(codewords);
  let best = forcedMask ?? -1;
  let bestPenalty = Infinity;
  for (let mask = 0; mask < 8 && forcedMask === null; mask += 1) {
    symbol.applyMask(mask);
    symbol.drawFormat(mask);
    const p = symbol.penalty();
    if (p < bestPenalty) {
      best = mask;
      bestPenalty = p;
    }
    symbol.applyMask(mask); // XOR again: undone
  }
  symbol.applyMask(best);
  symbol.drawFormat(best);
  return { version, size: symbol.size, mask: best, modules: symbol.modules };
}

/**
 * The QR code of `text` as an <svg> (role img, titled), 4 modules of quiet zone, dark modules in
 * one path. data-versao and data-modulos tell the version and the modules per side.
 */
export function qrSvg(text, { title = 'QR code', className = 'qr' } = {}) {
  const qr = encodeQR(text);
  const border = 4;
  const side = qr.size + border * 2;
  let d = '';
  qr.modules.forEach((row, y) => row.forEach((dark, x) => {
    if (dark) d += `M${x + border},${y + border}h1v1h-1z`;
  }));
  return svg('svg', {
    class: className, viewBox: `0 0 ${side} ${side}`, role: 'img', 'shape-rendering': 'crispEdges',
    'data-versao': String(qr.version), 'data-modulos': String(qr.size),
  },
  svg('title', {}, title),
  svg('rect', { x: 0, y: 0, width: side, height: side, fill: '#ffffff' }),
  svg('path', { d, fill: '#000000' }));
}
