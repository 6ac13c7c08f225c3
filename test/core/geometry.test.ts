import { describe, expect, it } from 'vitest';
import { aspectRatio, formatBounds, normToPx, parseBounds, pxToNorm } from '../../src/core/geometry.js';
import { Logger } from '../../src/core/logger.js';

describe('geometry', () => {
  it('round-trips the screen corners and centre through the normalized space', () => {
    const s = { width: 1080, height: 2400 };
    expect(pxToNorm({ x: 540, y: 1200 }, s)).toEqual({ x: 500, y: 500 });
    expect(normToPx({ x: 500, y: 500 }, s)).toEqual({ x: 540, y: 1200 });
    expect(normToPx({ x: 1000, y: 1000 }, s)).toEqual({ x: 1080, y: 2400 });
    expect(pxToNorm({ x: 2000, y: -5 }, s)).toEqual({ x: 1000, y: 0 });
  });

  it('records the aspect ratio of phones and foldables', () => {
    expect(aspectRatio({ width: 1080, height: 2400 })).toBe(0.45);
    expect(aspectRatio({ width: 2208, height: 1840 })).toBe(1.2);
  });

  it('parses and formats uiautomator bounds', () => {
    expect(parseBounds('[27,339][1053,1875]')).toEqual({ left: 27, top: 339, right: 1053, bottom: 1875 });
    expect(formatBounds({ left: 0, top: 0, right: 1080, bottom: 2400 })).toBe('[0,0][1080,2400]');
    expect(parseBounds('[1,2][3]')).toBeUndefined();
  });
});

describe('logger', () => {
  it('redacts secret fields and applies the redaction hook to messages', () => {
    const lines: string[] = [];
    const log = new Logger('cli', { sink: (l) => lines.push(l), redact: (s) => s.replace(/\d{11}/g, '[phone]') });
    log.info('typed 13800138000', { password: 'hunter2', token: 'abc', nested: { text: 'call 13800138000' } });
    expect(lines[0]).toContain('[phone]');
    expect(lines[0]).not.toContain('hunter2');
    expect(lines[0]).not.toContain('abc"');
    expect(lines[0]).not.toContain('13800138000');
  });
});
