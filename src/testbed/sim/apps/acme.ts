import type { App, AppContext, AppScreen, Route } from '../app.js';
import { tr } from '../kit/locale.js';
import type { View } from '../kit/view.js';
import { recordEvent } from '../world.js';
import { acmeAccount, seedAcme } from './acme-data.js';

/**
 * Acme bank: a login form whose Login button sits at the bottom of the window, so the keyboard
 * (which resizes the window) moves it; after a successful login the account balance is shown.
 */
export const ACME_PACKAGE = 'com.acme.bank';

export function createAcmeApp(): App {
  // Form drafts are UI state: they live in the app instance and reset on every cold launch.
  let email = '';
  let password = '';
  let error = '';

  const login = (ctx: AppContext): void => {
    const { world } = ctx;
    if (email.trim() === '' || password === '') {
      // Client-side validation: nothing reaches the server, so it is not an attempt.
      error = tr(ctx, 'Enter your email and password', '请输入邮箱和密码');
      return;
    }
    world.session.attempts += 1;
    const account = acmeAccount(world);
    if (email.trim().toLowerCase() === account.email.toLowerCase() && password === account.password) {
      world.session.user = account.email;
      error = '';
      password = '';
      ctx.replace('.AccountActivity');
      return;
    }
    error = tr(ctx, 'Wrong email or password', '邮箱或密码错误');
  };

  const loginScreen = (ctx: AppContext): AppScreen => {
    const children: View[] = [
      {
        kind: 'column',
        children: [
          { kind: 'image', id: 'logo', color: '#1e4fa3', glyph: 'A', width: 72, height: 72, desc: 'Acme logo' },
        ],
      },
      { kind: 'text', text: tr(ctx, 'Acme Bank', 'Acme银行'), size: 'title', bold: true },
      { kind: 'text', text: tr(ctx, 'Sign in to your account', '登录您的账户'), size: 'body', color: '#555555' },
      {
        kind: 'edit',
        id: 'email',
        value: email,
        hint: tr(ctx, 'Email', '邮箱'),
        onChange: (v) => {
          email = v;
        },
      },
      {
        kind: 'edit',
        id: 'password',
        value: password,
        hint: tr(ctx, 'Password', '密码'),
        password: true,
        onChange: (v) => {
          password = v;
        },
        onSubmit: () => login(ctx),
      },
    ];
    if (error) children.push({ kind: 'text', id: 'error', text: error, color: '#c62828', size: 'body' });
    // The form scrolls and fills the window, so the button sits at the window's bottom: when the IME
    // shrinks the window, the button moves up with it (off its old position), as on a real phone.
    const root: View = {
      kind: 'column',
      padding: 24,
      gap: 16,
      children: [
        { kind: 'list', id: 'login_form', gap: 16, height: 'fill', children },
        { kind: 'text', text: tr(ctx, 'Forgot password?', '忘记密码？'), size: 'small', color: '#1e4fa3' },
        { kind: 'button', id: 'login', text: tr(ctx, 'Log in', '登录'), style: 'primary', onTap: () => login(ctx) },
      ],
    };
    return {
      activity: '.LoginActivity',
      title: 'Acme',
      root,
    };
  };

  const accountScreen = (ctx: AppContext): AppScreen => {
    const { world } = ctx;
    return {
      activity: '.AccountActivity',
      title: 'Acme',
      root: {
        kind: 'column',
        padding: 24,
        gap: 16,
        children: [
          { kind: 'text', text: tr(ctx, 'Acme Bank', 'Acme银行'), size: 'title', bold: true },
          { kind: 'text', id: 'user', text: `Signed in as ${world.session.user ?? ''}`, size: 'body' },
          { kind: 'text', text: tr(ctx, 'Available balance', '可用余额'), size: 'body', color: '#555555' },
          { kind: 'text', id: 'balance', text: world.account.balance, size: 'title', bold: true },
          { kind: 'text', text: 'Checking •••• 3021', size: 'small', color: '#777777' },
          { kind: 'column', children: [], height: 'fill' },
          {
            kind: 'button',
            id: 'sign_out',
            text: tr(ctx, 'Sign out', '退出登录'),
            style: 'secondary',
            onTap: () => {
              const user = world.session.user;
              world.session.user = undefined;
              recordEvent(world, { kind: 'signed_out', app: ACME_PACKAGE, at: ctx.clock.now(), detail: { user } });
              ctx.replace('.LoginActivity');
            },
          },
        ],
      },
    };
  };

  return {
    package: ACME_PACKAGE,
    label: 'Acme',
    labelZh: 'Acme银行',
    iconColor: '#1e4fa3',
    glyph: 'A',
    activities: ['.LoginActivity', '.AccountActivity'],
    seedWorld: seedAcme,
    onLaunch(ctx) {
      email = '';
      password = '';
      error = '';
      if (ctx.world.session.user) ctx.replace('.AccountActivity');
    },
    render(route: Route, ctx: AppContext): AppScreen {
      if (route.activity === '.AccountActivity' && ctx.world.session.user) return accountScreen(ctx);
      return loginScreen(ctx);
    },
  };
}
