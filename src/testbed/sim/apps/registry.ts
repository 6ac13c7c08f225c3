import type { AppFactory } from '../app.js';
import { createAcmeApp } from './acme.js';
import { createBrowserApp } from './browser.js';
import { createCalendarApp } from './calendar.js';
import { createClockApp } from './clock.js';
import { createContactsApp } from './contacts.js';
import { createFilesApp } from './files.js';
import { createFoodShopApp } from './foodshop.js';
import { createMapsApp } from './maps.js';
import { createMessagesApp } from './messages.js';
import { createNotesApp } from './notes.js';
import { createRecordingsApp } from './recordings.js';
import { createSettingsApp } from './settings.js';

/**
 * Every app installed on the virtual phone. Each app file adds its factory here (one line each), so
 * apps can be written independently of each other.
 */
export const appFactories: AppFactory[] = [
  createAcmeApp,
  createFoodShopApp,
  createBrowserApp,
  // Contacts before Messages: Messages seeds threads with contacts' numbers.
  createContactsApp,
  createMessagesApp,
  createSettingsApp,
  createFilesApp,
  createNotesApp,
  createMapsApp,
  createClockApp,
  createCalendarApp,
  createRecordingsApp,
];
