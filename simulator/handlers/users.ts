import { fail } from '../errors.js';
import { deriveTotpSecret } from '../state/generate.js';
import { sameName } from '../state/lookup.js';
import type { Role, UserState } from '../state/model.js';
import { userView } from '../state/views.js';
import { requireEmail } from './checks.js';
import type { Ctx, HandlerMap } from './context.js';

/** Roles chosen for the simulator: Administrator (everything), Operator (no users/settings changes), Viewer (read only). */
export const ROLES: readonly Role[] = ['Administrator', 'Operator', 'Viewer'];

function parseRole(text: string | undefined): Role {
  const role = ROLES.find((r) => sameName(r, text));
  if (!role) fail(`Invalid Role '${text ?? ''}': expected one of ${ROLES.join(', ')}.`);
  return role;
}

function checkPassword(password: string | undefined): string {
  if (password === undefined || password.length < 8) fail('Password must be at least 8 characters long.');
  if (password.length > 128) fail('Password must be at most 128 characters long.');
  return password;
}

function requireUser(ctx: Ctx, name: string | undefined): UserState {
  if (!name) fail('name is required.');
  const user = ctx.site.users.find((u) => sameName(u.name, name));
  if (!user) fail(`User '${name}' does not exist.`);
  return user;
}

function dropSessions(ctx: Ctx, user: string): void {
  for (const [token, s] of ctx.site.sessions) if (s.user === user) ctx.site.sessions.delete(token);
}

export const userHandlers: HandlerMap = {
  'POST /users/create': (ctx) => {
    const name = ctx.body.str('Name');
    if (!name || !/^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$/.test(name)) fail(`Invalid Name '${name ?? ''}': use 1-32 letters, digits, '.', '_' or '-'.`);
    if (ctx.site.users.some((u) => sameName(u.name, name))) fail(`User '${name}' already exists.`);
    const user: UserState = {
      name,
      password: checkPassword(ctx.body.str('Password')),
      role: parseRole(ctx.body.str('Role')),
      email: requireEmail('Email', ctx.body.str('Email')),
      totpSecret: deriveTotpSecret(ctx.fleet.seed, ctx.site.index, name),
    };
    ctx.site.users.push(user);
    return `User '${name}' created with role ${user.role}.`;
  },

  'DELETE /users/delete': (ctx) => {
    const user = requireUser(ctx, ctx.query.str('name'));
    if (user.name === ctx.user?.name) fail('You cannot delete the user you are logged in as.');
    if (user.role === 'Administrator' && ctx.site.users.filter((u) => u.role === 'Administrator').length === 1) fail('Cannot delete the last Administrator.');
    ctx.site.users = ctx.site.users.filter((u) => u !== user);
    dropSessions(ctx, user.name);
    return `User '${user.name}' deleted.`;
  },

  'PUT /users/edit': (ctx) => {
    const user = requireUser(ctx, ctx.query.str('name'));
    const role = ctx.body.has('Role') ? parseRole(ctx.body.str('Role')) : undefined;
    const password = ctx.body.has('Password') ? checkPassword(ctx.body.str('Password')) : undefined;
    const email = ctx.body.has('Email') ? requireEmail('Email', ctx.body.str('Email')) : undefined;
    if (role === undefined && password === undefined && email === undefined) fail('Nothing to change: send Role, Password or Email.');
    if (role && role !== 'Administrator' && user.role === 'Administrator' && ctx.site.users.filter((u) => u.role === 'Administrator').length === 1)
      fail('Cannot demote the last Administrator.');
    if (role) user.role = role;
    if (password !== undefined) user.password = password;
    if (email !== undefined) user.email = email;
    return `User '${user.name}' updated.`;
  },

  'GET /users/list': (ctx) => {
    const name = ctx.query.str('name');
    const role = ctx.query.str('role');
    const users = ctx.site.users.filter((u) => (!name || sameName(u.name, name)) && (!role || sameName(u.role, role)));
    return { Data: users.map((u) => userView(ctx.site, u)) };
  },
};
