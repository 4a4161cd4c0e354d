// The one user each suite works as; its token is renewed by logging in again after a restart.
import type { AccessTokenResponse } from '@tally/contract';
import { request } from './http.js';
import { random } from './random.js';

export interface FaultUser {
  username: string;
  password: string;
  token: string;
}

export async function signUp(port: number): Promise<FaultUser> {
  const username = `fault_${Date.now().toString(36)}_${Math.floor(random() * 1e6)}`;
  const response = await request<AccessTokenResponse>(port, 'POST', '/api/auth/register', {
    body: { username, email: `${username}@example.com`, password: 'correct horse battery' },
  });
  if (response.status !== 201) throw new Error(`register failed: ${JSON.stringify(response)}`);
  return { username, password: 'correct horse battery', token: response.body.accessToken };
}

export async function login(port: number, user: FaultUser): Promise<void> {
  const response = await request<AccessTokenResponse>(port, 'POST', '/api/auth/login', {
    body: { username: user.username, password: user.password },
  });
  if (response.status !== 200) throw new Error(`login failed: ${JSON.stringify(response)}`);
  user.token = response.body.accessToken;
}
