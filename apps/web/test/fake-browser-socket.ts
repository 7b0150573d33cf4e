/**
 * A stand-in for the browser's WebSocket (`vi.stubGlobal('WebSocket', FakeBrowserSocket)`):
 * records every socket the code under test opens, and the test plays the server's side.
 */
export class FakeBrowserSocket {
  static opened: FakeBrowserSocket[] = [];
  static readonly OPEN = 1;
  readyState = 0;
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  readonly url: string;
  constructor(url: string) {
    this.url = url;
    FakeBrowserSocket.opened.push(this);
  }
  send() {}
  close() {}
}
