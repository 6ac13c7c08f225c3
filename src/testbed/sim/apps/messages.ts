import type { App, AppContext, AppScreen, Route } from '../app.js';
import { tr } from '../kit/locale.js';
import type { View } from '../kit/view.js';
import { type Contact, recordEvent, type Thread } from '../world.js';
import { contactByName, contactByPhone, normalizePhone } from './contacts-data.js';
import { lastAt, seedMessages } from './messages-data.js';
import { copyCodeChip } from './messages-otp.js';

/**
 * Messages: a thread list (newest first), a thread view with a reply box, and a compose screen
 * (To with contact suggestions, body, Send). Sending is irreversible: it appends to `world.sent`
 * and records a 'sent' event.
 */
export const MESSAGES_PACKAGE = 'com.android.messaging';

const PHONE_RE = /^\+?[\d\s\-()]{3,}$/;

function timeLabel(at: number): string {
  return new Date(at).toISOString().slice(5, 16).replace('T', ' ');
}

export function createMessagesApp(): App {
  let to = '';
  let body = '';
  let reply = '';
  let error = '';
  /** Share intents already taken into the compose draft (each screen's params object, once). */
  const shares = new WeakSet<object>();

  const peerName = (ctx: AppContext, peer: string): string => contactByPhone(ctx.world, peer)?.name ?? peer;

  /** Resolves a typed recipient: a contact's exact name → its number; otherwise a phone number. */
  const resolve = (ctx: AppContext, raw: string): string | undefined => {
    const t = raw.trim();
    const contact = contactByName(ctx.world, t);
    if (contact) return contact.phone;
    return PHONE_RE.test(t) ? t : undefined;
  };

  const send = (ctx: AppContext, recipient: string, text: string): Thread => {
    const { world } = ctx;
    const at = ctx.clock.now();
    world.sent.push({ to: recipient, body: text, at });
    let thread = world.threads.find((t) => normalizePhone(t.peer) === normalizePhone(recipient));
    if (!thread) {
      thread = { id: world.threads.reduce((m, t) => Math.max(m, t.id), 0) + 1, peer: recipient, messages: [] };
      world.threads.push(thread);
    }
    thread.messages.push({ from: 'me', body: text, at });
    recordEvent(world, { kind: 'sent', app: MESSAGES_PACKAGE, at, detail: { to: recipient, chars: text.length } });
    return thread;
  };

  const listScreen = (ctx: AppContext): AppScreen => {
    const threads = [...ctx.world.threads].sort((a, b) => lastAt(b) - lastAt(a));
    const rows: View[] = threads.map((t) => {
      const last = t.messages[t.messages.length - 1];
      return {
        kind: 'column',
        id: 'thread_row',
        padding: 12,
        gap: 2,
        onTap: () => {
          reply = '';
          ctx.navigate('.ConversationActivity', { threadId: t.id });
        },
        children: [
          {
            kind: 'row',
            children: [
              { kind: 'text', id: 'peer', text: peerName(ctx, t.peer), size: 'body', bold: true, weight: 3 },
              {
                kind: 'text',
                id: 'time',
                text: last ? timeLabel(last.at) : '',
                size: 'small',
                color: '#777777',
                weight: 1,
              },
            ],
          },
          { kind: 'text', id: 'snippet', text: last ? last.body.slice(0, 60) : '', size: 'small', color: '#555555' },
        ],
      };
    });
    return {
      activity: '.ConversationListActivity',
      title: 'Messages',
      root: {
        kind: 'column',
        padding: 12,
        gap: 8,
        children: [
          { kind: 'text', text: tr(ctx, 'Messages', '信息'), size: 'title', bold: true },
          { kind: 'list', id: 'threads', height: 'fill', gap: 0, children: rows },
          {
            kind: 'button',
            id: 'start_chat',
            text: tr(ctx, 'Start chat', '发起聊天'),
            style: 'primary',
            onTap: () => {
              to = '';
              body = '';
              error = '';
              ctx.navigate('.ComposeActivity');
            },
          },
        ],
      },
    };
  };

  const threadScreen = (ctx: AppContext, route: Route): AppScreen => {
    const thread = ctx.world.threads.find((t) => t.id === Number(route.params.threadId));
    if (!thread) return listScreen(ctx);
    const bubbles: View[] = thread.messages.map((m) => ({
      kind: 'column',
      id: m.from === 'me' ? 'message_out' : 'message_in',
      padding: 8,
      background: m.from === 'me' ? '#d7ecff' : '#eeeeee',
      children: [
        { kind: 'text', id: 'message_text', text: m.body, size: 'body' },
        { kind: 'text', text: timeLabel(m.at), size: 'small', color: '#777777' },
      ],
    }));
    const chip = copyCodeChip(ctx, thread);
    const sendReply = (): void => {
      if (!reply.trim()) return;
      send(ctx, thread.peer, reply);
      reply = '';
    };
    return {
      activity: '.ConversationActivity',
      title: peerName(ctx, thread.peer),
      root: {
        kind: 'column',
        padding: 12,
        gap: 8,
        children: [
          { kind: 'text', id: 'conversation_title', text: peerName(ctx, thread.peer), size: 'large', bold: true },
          { kind: 'list', id: 'messages', height: 'fill', gap: 8, children: bubbles },
          ...(chip ? [chip] : []),
          {
            kind: 'row',
            gap: 8,
            children: [
              {
                kind: 'edit',
                id: 'compose_message',
                value: reply,
                hint: tr(ctx, 'Text message', '短信'),
                weight: 4,
                onChange: (v) => {
                  reply = v;
                },
              },
              {
                kind: 'button',
                id: 'send',
                text: tr(ctx, 'Send', '发送'),
                desc: 'Send',
                enabled: reply.trim() !== '',
                onTap: sendReply,
              },
            ],
          },
        ],
      },
    };
  };

  /** Up to five contacts whose name (or, for digits, number) contains what was typed into To. */
  const suggestContacts = (ctx: AppContext, typed: string): Contact[] => {
    if (!typed) return [];
    const byNumber = PHONE_RE.test(typed);
    const q = byNumber ? normalizePhone(typed) : typed.toLowerCase();
    return ctx.world.contacts
      .filter((c) =>
        byNumber ? normalizePhone(c.phone).includes(q) && c.phone !== typed : c.name.toLowerCase().includes(q),
      )
      .slice(0, 5);
  };

  const composeScreen = (ctx: AppContext, route: Route): AppScreen => {
    // ACTION_SEND from another app (Notes → Share → Messages): its text becomes the draft body.
    if (typeof route.params.text === 'string' && !shares.has(route.params)) {
      shares.add(route.params);
      to = '';
      body = route.params.text;
      error = '';
    }
    const typed = to.trim();
    const exact = contactByName(ctx.world, typed);
    const suggestions = exact ? [] : suggestContacts(ctx, typed);
    const children: View[] = [
      { kind: 'text', text: tr(ctx, 'New message', '新信息'), size: 'large', bold: true },
      {
        kind: 'edit',
        id: 'recipient',
        value: to,
        hint: tr(ctx, 'To: name or number', '收件人'),
        onChange: (v) => {
          to = v;
          error = '';
        },
      },
    ];
    if (exact)
      children.push({ kind: 'text', id: 'recipient_resolved', text: `${exact.name} · ${exact.phone}`, size: 'small' });
    for (const c of suggestions) {
      children.push({
        kind: 'row',
        id: 'suggestion',
        padding: 8,
        onTap: () => {
          to = c.phone;
        },
        children: [{ kind: 'text', id: 'suggestion_text', text: `${c.name}  ${c.phone}`, size: 'body' }],
      });
    }
    children.push({
      kind: 'edit',
      id: 'message',
      value: body,
      hint: tr(ctx, 'Text message', '短信'),
      onChange: (v) => {
        body = v;
      },
    });
    if (error) children.push({ kind: 'text', id: 'error', text: error, color: '#c62828', size: 'body' });
    children.push({ kind: 'column', children: [], height: 'fill' });
    children.push({
      kind: 'button',
      id: 'send',
      text: tr(ctx, 'Send', '发送'),
      desc: 'Send',
      style: 'primary',
      enabled: to.trim() !== '' && body.trim() !== '',
      onTap: () => {
        const recipient = resolve(ctx, to);
        if (!recipient) {
          error = tr(ctx, 'Not a valid number or contact', '无效的号码或联系人');
          return;
        }
        const thread = send(ctx, recipient, body);
        to = '';
        body = '';
        ctx.replace('.ConversationActivity', { threadId: thread.id });
      },
    });
    return {
      activity: '.ComposeActivity',
      title: 'New message',
      root: { kind: 'column', padding: 12, gap: 8, children },
    };
  };

  return {
    package: MESSAGES_PACKAGE,
    label: 'Messages',
    labelZh: '信息',
    iconColor: '#1a73e8',
    glyph: 'M',
    activities: ['.ConversationListActivity', '.ConversationActivity', '.ComposeActivity'],
    seedWorld: seedMessages,
    onLaunch() {
      to = '';
      body = '';
      reply = '';
      error = '';
    },
    render(route, ctx) {
      if (route.activity === '.ConversationActivity') return threadScreen(ctx, route);
      if (route.activity === '.ComposeActivity') return composeScreen(ctx, route);
      return listScreen(ctx);
    },
  };
}
