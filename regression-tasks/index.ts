import type { CatalogEntry } from '../src/testbed/reference-model/intents.js';
import { CAL_01 } from './tasks/cal-01.js';
import { CLK_01 } from './tasks/clk-01.js';
import { CLK_02 } from './tasks/clk-02.js';
import { CLK_03 } from './tasks/clk-03.js';
import { CT_01 } from './tasks/ct-01.js';
import { CT_03 } from './tasks/ct-03.js';
import { CT_04 } from './tasks/ct-04.js';
import { FILE_01 } from './tasks/file-01.js';
import { FILE_02 } from './tasks/file-02.js';
import { LAU_01 } from './tasks/lau-01.js';
import { LOGIN_01 } from './tasks/login-01.js';
import { LOGIN_02 } from './tasks/login-02.js';
import { LOGIN_03 } from './tasks/login-03.js';
import { MAP_01 } from './tasks/map-01.js';
import { MSG_01, MSG_01_DENY } from './tasks/msg-01.js';
import { MSG_03 } from './tasks/msg-03.js';
import { MSG_04 } from './tasks/msg-04.js';
import { NOTE_01 } from './tasks/note-01.js';
import { REC_01 } from './tasks/rec-01.js';
import { REC_02 } from './tasks/rec-02.js';
import { REC_03 } from './tasks/rec-03.js';
import { SET_01 } from './tasks/set-01.js';
import { SET_02 } from './tasks/set-02.js';
import { SET_03 } from './tasks/set-03.js';
import { SET_04 } from './tasks/set-04.js';
import { SET_05 } from './tasks/set-05.js';
import { SET_06 } from './tasks/set-06.js';
import { SET_08 } from './tasks/set-08.js';
import { SET_09 } from './tasks/set-09.js';
import { SHOP_01 } from './tasks/shop-01.js';
import { SHOP_02 } from './tasks/shop-02.js';
import { SHOP_03 } from './tasks/shop-03.js';
import { SHOP_04 } from './tasks/shop-04.js';
import { SHOP_05 } from './tasks/shop-05.js';
import { SHOP_06 } from './tasks/shop-06.js';
import { WEB_02 } from './tasks/web-02.js';
import { XAPP_02 } from './tasks/xapp-02.js';
import { instantiate, type TaskDef } from './types.js';

/** The task catalog (one definition per file under tasks/). */
export const TASKS: readonly TaskDef[] = [
  SET_01,
  SET_02,
  SET_03,
  SET_04,
  SET_05,
  SET_06,
  SET_08,
  SET_09,
  LOGIN_01,
  LOGIN_02,
  LOGIN_03,
  SHOP_01,
  SHOP_02,
  SHOP_03,
  SHOP_04,
  SHOP_05,
  SHOP_06,
  CT_01,
  CT_03,
  CT_04,
  MSG_01,
  MSG_01_DENY,
  MSG_03,
  MSG_04,
  LAU_01,
  WEB_02,
  MAP_01,
  FILE_01,
  FILE_02,
  NOTE_01,
  XAPP_02,
  CLK_01,
  CLK_02,
  CLK_03,
  CAL_01,
  REC_01,
  REC_02,
  REC_03,
];

/** What the reference model is "trained" on: instruction templates → intent templates. */
export function referenceCatalog(tasks: readonly TaskDef[] = TASKS): CatalogEntry[] {
  // The example is the goal of seed 1: a phrasing that works as it is, to copy.
  return tasks.map((t) => ({
    id: t.id,
    instruction: t.instruction,
    example: instantiate(t, 1).goal,
    intents: t.intents,
  }));
}
