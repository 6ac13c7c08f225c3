import type { App, AppContext, AppScreen } from '../app.js';
import type { View } from '../kit/view.js';
import { findPlaces, mapState, type Place, panBy, SEARCH_ZOOM, seedMaps, zoomAround } from './maps-data.js';
import { paintMap } from './maps-paint.js';

/**
 * Maps: a search box over a map drawn only into the screenshot (the tree holds one View described
 * "Map", as a real map's GL surface does). Pinch zooms around the fingers' midpoint, a drag pans;
 * typing shows matching places and tapping one centres the map on it. Zoom and centre live on the
 * world (`world.maps`) for checks; `world.maps.locked` freezes the map (fault injection).
 * With `world.permissions.location` set to `unasked`, launching asks for location the way Android 11+
 * does (While using the app / Only this time / Don't allow), and the world records which was chosen.
 */
export const MAPS_PACKAGE = 'com.example.maps';

export function createMapsApp(): App {
  let query = '';

  const askLocation = (ctx: AppContext): void => {
    // A dialog button closes its dialog itself (as an AlertDialog does).
    const choose = (grant: 'while_using' | 'once' | 'denied') => () => {
      ctx.world.permissions.location = grant;
    };
    ctx.showDialog({
      kind: 'system',
      title: 'Allow Maps to access this device’s location? · 要允许“地图”获取此设备的位置信息吗？',
      buttons: [
        {
          text: 'While using the app · 使用应用时允许',
          id: 'permission_allow_foreground_only_button',
          onTap: choose('while_using'),
        },
        { text: 'Only this time · 仅此一次', id: 'permission_allow_one_time_button', onTap: choose('once') },
        { text: "Don't allow · 不允许", id: 'permission_deny_button', onTap: choose('denied') },
      ],
    });
  };

  const select = (ctx: AppContext, p: Place): void => {
    const s = mapState(ctx.world);
    s.center = { lat: p.lat, lon: p.lon };
    s.zoom = SEARCH_ZOOM;
    s.selected = p.name;
    query = p.name;
    // A fresh map screen: the keyboard closes, as it does when a result is chosen.
    ctx.replace('.MapActivity');
  };

  const suggestions = (ctx: AppContext, zh: boolean): View | undefined => {
    const s = mapState(ctx.world);
    if (!query.trim() || query === s.selected) return undefined;
    const hits = findPlaces(query);
    if (!hits.length)
      return {
        kind: 'column',
        padding: 16,
        height: 'fill',
        children: [{ kind: 'text', id: 'no_results', text: zh ? '无结果' : 'No results' }],
      };
    return {
      kind: 'list',
      id: 'suggestions',
      height: 'fill',
      children: hits.map(
        (p): View => ({
          kind: 'column',
          id: 'suggestion',
          padding: 12,
          onTap: () => select(ctx, p),
          children: [
            { kind: 'text', id: 'suggestion_name', text: zh ? `${p.name} · ${p.nameZh}` : p.name, bold: true },
            { kind: 'text', id: 'suggestion_address', text: p.address, size: 'small', color: '#5f6368' },
          ],
        }),
      ),
    };
  };

  const mapScreen = (ctx: AppContext): AppScreen => {
    const zh = ctx.locale === 'zh';
    const s = mapState(ctx.world);
    const list = suggestions(ctx, zh);
    const search: View = {
      kind: 'edit',
      id: 'search',
      value: query,
      hint: zh ? '在此搜索' : 'Search here',
      onChange: (v) => {
        query = v;
      },
      onSubmit: () => {
        const first = findPlaces(query)[0];
        if (first) select(ctx, first);
      },
    };
    const map: View = {
      kind: 'canvas',
      id: 'map',
      // Map SDKs draw into a TextureView; perception treats that as a visual-first surface.
      className: 'android.view.TextureView',
      desc: zh ? '地图' : 'Map',
      height: 'fill',
      paint: (w, h) => paintMap(s, w, h),
      onPinch: (scale, focus, size) => {
        if (!s.locked) zoomAround(s, scale, focus, size);
      },
      onDrag: (dx, dy, size) => {
        if (!s.locked) panBy(s, dx, dy, size.width);
      },
    };
    const chosen = s.selected;
    const card: View[] =
      chosen && !list
        ? [
            {
              kind: 'column',
              id: 'place_card',
              padding: 12,
              children: [
                { kind: 'text', id: 'place_name', text: chosen, size: 'large', bold: true },
                { kind: 'text', id: 'place_address', text: findPlaces(chosen)[0]?.address ?? '', size: 'small' },
              ],
            },
          ]
        : [];
    return {
      activity: '.MapActivity',
      title: zh ? '地图' : 'Maps',
      root: {
        kind: 'column',
        padding: 0,
        gap: 0,
        children: [{ kind: 'row', padding: 8, children: [search] }, list ?? map, ...card],
      },
    };
  };

  return {
    package: MAPS_PACKAGE,
    label: 'Maps',
    labelZh: '地图',
    iconColor: '#34a853',
    glyph: 'M',
    activities: ['.MapActivity'],
    seedWorld: seedMaps,
    onLaunch(ctx) {
      query = mapState(ctx.world).selected ?? '';
      if (ctx.world.permissions.location === 'unasked') askLocation(ctx);
    },
    render(_route, ctx) {
      return mapScreen(ctx);
    },
  };
}
