import { type Command, ok, usage } from '../command.js';

/** `wm size` / `wm density` in the exact form clients parse ("Physical size: 1080x2400"). */
export const wm: Command = async (ctx) => {
  const [sub, arg] = ctx.argv.slice(1);
  const s = ctx.phone.screen();
  // Physical size is the natural (portrait) size whatever the current rotation.
  const rotated = s.rotation % 2 === 1;
  const [w, h] = rotated ? [s.height, s.width] : [s.width, s.height];
  switch (sub) {
    case 'size':
      if (arg && arg !== 'reset') return usage('wm size: the virtual phone cannot override its size');
      return ok(`Physical size: ${w}x${h}\n`);
    case 'density':
      if (arg && arg !== 'reset') return usage('wm density: the virtual phone cannot override its density');
      return ok(`Physical density: ${s.density}\n`);
    case 'dismiss-keyguard':
      return ok();
    default:
      return usage(
        'Window manager (window) commands:\n  help\n      Print this help text.\n  size [reset|WxH|WdpxHdp] [-d DISPLAY_ID]\n    Return or override display size.\n  density [reset|DENSITY] [-d DISPLAY_ID]\n    Return or override display density.\n',
        255,
      );
  }
};
