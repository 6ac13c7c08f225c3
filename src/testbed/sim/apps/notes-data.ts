import type { Note, World } from '../world.js';

/**
 * Seeded notes: a dozen with distinct titles (English and Chinese), bodies of a sentence or a short
 * list, times before the virtual clock's default start. Which body each note gets is seeded, so the
 * text a task sends differs between seeds.
 */

const BASE = 1_700_000_000_000;
const HOUR = 3_600_000;

/** Each note's title and the bodies it may have (seeded pick): titles are unique, none a prefix of another. */
const NOTES: readonly [string, readonly string[]][] = [
  ['Gate code', ['The gate code is 4829, then press the bell twice.', 'Gate code 7351#, the side door sticks.']],
  [
    'Meeting point',
    ['Meet at the north entrance at 6:30 pm, bring the tickets.', 'Under the clock at the station, 10:15.'],
  ],
  ['Parking spot', ['Level B2, spot 117, next to the elevator.', 'Green zone, row F, spot 42.']],
  [
    'Dentist appointment',
    ['Dr. Chen on Tuesday at 9:15 am, bring the insurance card.', 'Thursday 4 pm, cleaning only.'],
  ],
  [
    'Book club picks',
    ['Piranesi, The Overstory, Klara and the Sun.', 'Circe, Station Eleven, The Remains of the Day.'],
  ],
  ['Packing list', ['Passport, charger, two shirts, sunscreen, umbrella.', 'Boots, rain jacket, headlamp, snacks.']],
  [
    'Weekend plan',
    ['Saturday: farmers market at 9, lunch with Sam, movie at 8.', "Sunday: bike ride, then dinner at Mia's."],
  ],
  [
    'Gift ideas',
    ['A scarf for mom, a puzzle for Leo, coffee beans for Ana.', 'Headphones for Tom, a plant for Grace.'],
  ],
  ['会议纪要', ['下周三下午三点开会，请提前准备季度报告。', '预算已批准，下周一开始执行。']],
  ['周末计划', ['周六上午爬山，下午去超市买水果。', '周日在家看书，晚上和朋友吃火锅。']],
  ['购物清单', ['牛奶两盒，鸡蛋一打，面包一袋，苹果六个。', '大米一袋，酱油一瓶，西红柿五个。']],
  ['旅行清单', ['护照、充电器、雨伞、换洗衣物、洗漱用品。', '身份证、相机、防晒霜、拖鞋。']],
];

/** Note titles; tasks pick from these. */
export const NOTE_TITLES: readonly string[] = NOTES.map(([t]) => t);

export function seedNotes(world: World, random: () => number): void {
  world.notes = NOTES.map(([title, bodies], i) => ({
    id: i + 1,
    title,
    body: bodies[Math.floor(random() * bodies.length)] ?? '',
    at: BASE - Math.floor(random() * 30 * 24) * HOUR,
  }));
}

export function noteByTitle(world: World, title: string): Note | undefined {
  return world.notes.find((n) => n.title === title);
}

/** Newest first, as the notes list shows them. */
export function sortedNotes(world: World): Note[] {
  return [...world.notes].sort((a, b) => b.at - a.at || a.id - b.id);
}
