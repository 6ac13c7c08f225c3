import { shortClassName, type UiNode } from './tree.js';

/**
 * Roles (short class names the LLM reads) and verbs (what acting on an element means). Generic
 * layout classes collapse to `View`, which the compact view leaves out.
 */

export type Verb = 'tap' | 'fill' | 'toggle' | 'slide' | 'scroll' | 'long';

const ROLE_RULES: [RegExp, string][] = [
  [/EditText|AutoCompleteTextView|SearchAutoComplete|TextField/, 'EditText'],
  [/Switch|ToggleButton/, 'Switch'],
  [/RadioButton/, 'Radio'],
  [/CheckBox|CheckedTextView/, 'CheckBox'],
  [/SeekBar|Slider|RatingBar/, 'SeekBar'],
  [/ProgressBar/, 'Progress'],
  [/ImageButton|FloatingActionButton/, 'ImageButton'],
  [/Button/, 'Button'],
  [/WebView/, 'WebView'],
  [/Spinner/, 'Spinner'],
  [/TabView|\bTab$|TabLayout\$Tab/, 'Tab'],
  [
    /RecyclerView|ListView|ScrollView|GridView|ViewPager|NestedScroll|AbsList|Gallery|ScreenView|PagedView|Pager|Carousel/,
    'List',
  ],
  [/ImageView|Image$/, 'Image'],
  [/TextView|Text$/, 'Text'],
];

const roleCache = new Map<string, string>();

export function roleOf(className: string): string {
  const cached = roleCache.get(className);
  if (cached !== undefined) return cached;
  const short = shortClassName(className);
  let role = 'View';
  for (const [re, r] of ROLE_RULES) {
    if (re.test(short)) {
      role = r;
      break;
    }
  }
  roleCache.set(className, role);
  return role;
}

export function isSeekBar(n: UiNode): boolean {
  return roleOf(n.className) === 'SeekBar' || (n.range !== undefined && roleOf(n.className) !== 'Progress');
}

/** The DESIGN §3 definition of actionable, plus seek bars. */
export function isActionable(n: UiNode): boolean {
  const f = n.flags;
  return f.clickable || f.longClickable || f.editable || f.checkable || f.scrollable || isSeekBar(n);
}

export function verbOf(n: {
  role: string;
  flags: { clickable: boolean; longClickable: boolean; editable: boolean; checkable: boolean; scrollable: boolean };
}): Verb {
  const f = n.flags;
  if (f.editable) return 'fill';
  if (n.role === 'SeekBar') return 'slide';
  if (f.checkable) return 'toggle';
  if (f.clickable) return 'tap';
  if (f.scrollable) return 'scroll';
  if (f.longClickable) return 'long';
  return 'tap';
}
