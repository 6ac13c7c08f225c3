import type { App, AppContext, AppScreen, Route } from '../app.js';
import { tr } from '../kit/locale.js';
import type { View } from '../kit/view.js';
import { recordEvent } from '../world.js';
import { normalizePhone, seedContacts, sortedContacts } from './contacts-data.js';

/**
 * Contacts: a runtime-permission dialog until access is granted, a long sorted list with search,
 * a detail screen with Delete (confirmed in an in-app dialog) and an Add contact form.
 */
export const CONTACTS_PACKAGE = 'com.android.contacts';

export function createContactsApp(): App {
  let query = '';
  let draftName = '';
  let draftPhone = '';
  let formError = '';

  const askPermission = (ctx: AppContext): void => {
    const { world } = ctx;
    ctx.showDialog({
      kind: 'system',
      title: tr(ctx, 'Allow Contacts to access your contacts?', '允许“通讯录”访问您的联系人吗？'),
      buttons: [
        {
          text: tr(ctx, 'Allow', '允许'),
          id: 'permission_allow_button',
          onTap: () => {
            world.permissions.contacts = 'granted';
            ctx.closeDialog();
          },
        },
        {
          text: tr(ctx, "Don't allow", '不允许'),
          id: 'permission_deny_button',
          onTap: () => {
            world.permissions.contacts = 'denied';
            ctx.closeDialog();
          },
        },
      ],
    });
  };

  const granted = (ctx: AppContext): boolean => ctx.world.permissions.contacts === 'granted';

  const listScreen = (ctx: AppContext): AppScreen => {
    if (!granted(ctx)) {
      return {
        activity: '.PeopleActivity',
        title: 'Contacts',
        root: {
          kind: 'column',
          padding: 24,
          gap: 16,
          children: [
            { kind: 'text', text: tr(ctx, 'Contacts', '通讯录'), size: 'title', bold: true },
            {
              kind: 'text',
              id: 'permission_needed',
              text: tr(ctx, 'Contacts needs access to your contacts.', '需要通讯录权限。'),
              size: 'body',
            },
            {
              kind: 'button',
              id: 'grant',
              text: tr(ctx, 'Allow access', '授予权限'),
              style: 'primary',
              onTap: () => askPermission(ctx),
            },
          ],
        },
      };
    }
    const q = query.trim().toLowerCase();
    const shown = sortedContacts(ctx.world.contacts).filter(
      (c) => !q || c.name.toLowerCase().includes(q) || normalizePhone(c.phone).includes(normalizePhone(q) || q),
    );
    const rows: View[] = shown.map((c) => ({
      kind: 'row',
      id: 'contact_row',
      padding: 12,
      gap: 12,
      onTap: () => ctx.navigate('.ContactDetailActivity', { contactId: c.id }),
      children: [
        { kind: 'image', color: '#5c6bc0', glyph: c.name.slice(0, 1), width: 40, height: 40 },
        { kind: 'text', id: 'contact_name', text: c.name, size: 'body', weight: 5 },
      ],
    }));
    if (rows.length === 0)
      rows.push({ kind: 'text', id: 'no_results', text: tr(ctx, 'No contacts found', '未找到联系人'), size: 'body' });
    return {
      activity: '.PeopleActivity',
      title: 'Contacts',
      root: {
        kind: 'column',
        padding: 12,
        gap: 8,
        children: [
          {
            kind: 'row',
            gap: 8,
            children: [
              { kind: 'text', text: tr(ctx, 'Contacts', '通讯录'), size: 'title', bold: true, weight: 3 },
              {
                kind: 'button',
                id: 'add_contact',
                text: tr(ctx, '+ Add', '新建'),
                desc: 'Add contact',
                style: 'primary',
                weight: 2,
                onTap: () => {
                  draftName = '';
                  draftPhone = '';
                  formError = '';
                  ctx.navigate('.ContactEditorActivity');
                },
              },
            ],
          },
          {
            kind: 'edit',
            id: 'search',
            value: query,
            hint: tr(ctx, `Search ${ctx.world.contacts.length} contacts`, '搜索联系人'),
            onChange: (v) => {
              query = v;
            },
          },
          { kind: 'list', id: 'contacts', gap: 0, height: 'fill', children: rows },
        ],
      },
    };
  };

  const detailScreen = (ctx: AppContext, route: Route): AppScreen => {
    const { world } = ctx;
    const contact = world.contacts.find((c) => c.id === Number(route.params.contactId));
    if (!contact) return listScreen(ctx);
    const confirmDelete = (): void => {
      ctx.showDialog({
        kind: 'app',
        title: tr(ctx, 'Delete this contact?', '删除此联系人？'),
        message: tr(ctx, `${contact.name} will be removed from this phone.`, `${contact.name}将从手机中删除。`),
        buttons: [
          { text: tr(ctx, 'Cancel', '取消'), id: 'cancel', onTap: () => ctx.closeDialog() },
          {
            text: tr(ctx, 'Delete', '删除'),
            id: 'confirm_delete',
            onTap: () => {
              const index = world.contacts.findIndex((c) => c.id === contact.id);
              if (index >= 0) world.contacts.splice(index, 1);
              recordEvent(world, {
                kind: 'deleted',
                app: CONTACTS_PACKAGE,
                at: ctx.clock.now(),
                detail: { contactId: contact.id, name: contact.name },
              });
              ctx.closeDialog();
              ctx.back();
              ctx.toast(tr(ctx, 'Contact deleted', '联系人已删除'));
            },
          },
        ],
      });
    };
    const children: View[] = [
      { kind: 'image', id: 'photo', color: '#5c6bc0', glyph: contact.name.slice(0, 1), height: 140 },
      { kind: 'text', id: 'name', text: contact.name, size: 'title', bold: true },
      { kind: 'text', text: tr(ctx, 'Mobile', '手机'), size: 'small', color: '#666666' },
      { kind: 'text', id: 'phone', text: contact.phone, size: 'large' },
    ];
    if (contact.email) {
      children.push({ kind: 'text', text: tr(ctx, 'Email', '邮箱'), size: 'small', color: '#666666' });
      children.push({ kind: 'text', id: 'email', text: contact.email, size: 'body' });
    }
    children.push({ kind: 'column', children: [], height: 'fill' });
    children.push({
      kind: 'button',
      id: 'delete',
      text: tr(ctx, 'Delete', '删除'),
      style: 'danger',
      onTap: confirmDelete,
    });
    return {
      activity: '.ContactDetailActivity',
      title: contact.name,
      root: { kind: 'column', padding: 16, gap: 12, children },
    };
  };

  const save = (ctx: AppContext): void => {
    const name = draftName.trim();
    const phone = draftPhone.trim();
    if (!name) {
      formError = tr(ctx, 'Enter a name', '请输入姓名');
      return;
    }
    if (!phone) {
      formError = tr(ctx, 'Enter a phone number', '请输入电话号码');
      return;
    }
    const { world } = ctx;
    const id = world.contacts.reduce((m, c) => Math.max(m, c.id), 0) + 1;
    world.contacts.push({ id, name, phone });
    formError = '';
    ctx.toast(tr(ctx, 'Contact saved', '联系人已保存'));
    ctx.replace('.ContactDetailActivity', { contactId: id });
  };

  const editorScreen = (ctx: AppContext): AppScreen => {
    const children: View[] = [
      {
        kind: 'row',
        gap: 8,
        children: [
          { kind: 'button', id: 'cancel', text: tr(ctx, 'Cancel', '取消'), style: 'flat', onTap: () => ctx.back() },
          { kind: 'text', text: tr(ctx, 'New contact', '新建联系人'), size: 'large', bold: true, weight: 2 },
          { kind: 'button', id: 'save', text: tr(ctx, 'Save', '保存'), style: 'primary', onTap: () => save(ctx) },
        ],
      },
      {
        kind: 'edit',
        id: 'name',
        value: draftName,
        hint: tr(ctx, 'Name', '姓名'),
        onChange: (v) => {
          draftName = v;
        },
      },
      {
        kind: 'edit',
        id: 'phone',
        value: draftPhone,
        hint: tr(ctx, 'Phone', '电话'),
        onChange: (v) => {
          draftPhone = v;
        },
        onSubmit: () => save(ctx),
      },
    ];
    if (formError) children.push({ kind: 'text', id: 'error', text: formError, color: '#c62828', size: 'body' });
    return {
      activity: '.ContactEditorActivity',
      title: 'New contact',
      root: { kind: 'column', padding: 16, gap: 12, children },
    };
  };

  return {
    package: CONTACTS_PACKAGE,
    label: 'Contacts',
    labelZh: '通讯录',
    iconColor: '#3f51b5',
    glyph: 'C',
    activities: ['.PeopleActivity', '.ContactDetailActivity', '.ContactEditorActivity'],
    seedWorld: seedContacts,
    onLaunch(ctx) {
      query = '';
      const state = ctx.world.permissions.contacts;
      if (state === undefined || state === 'unasked') askPermission(ctx);
    },
    render(route, ctx) {
      if (!granted(ctx)) return listScreen(ctx);
      if (route.activity === '.ContactDetailActivity') return detailScreen(ctx, route);
      if (route.activity === '.ContactEditorActivity') return editorScreen(ctx);
      return listScreen(ctx);
    },
  };
}
