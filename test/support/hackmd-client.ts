// The official @hackmd/api client, unchanged, against this run's Notes API; every response it
// receives is also checked against openapi/notes.json (through an axios interceptor).
import { API } from '@hackmd/api';
import type { AxiosInstance, AxiosResponse } from 'axios';
import { baseUrl, CLIENT_TIMEOUT_MS } from './http.ts';
import { expectDocumented } from './openapi.ts';

export function documentedClient(token: string): API {
  const api = new API(token, `${baseUrl()}/v1`, { wrapResponseErrors: true, timeout: CLIENT_TIMEOUT_MS });
  const documented = (res: AxiosResponse) => {
    const path = new URL(res.config.url!, `${res.config.baseURL}/`).pathname;
    const text = typeof res.data === 'string' ? res.data : JSON.stringify(res.data);
    expectDocumented('notes', res.config.method!.toUpperCase(), path, {
      status: res.status,
      headers: new Headers(),
      body: res.data,
      text,
    });
    return res;
  };
  (api as unknown as { axios: AxiosInstance }).axios.interceptors.response.use(documented);
  return api;
}
