// The WebSocket to the server: JSON messages both ways (docs/gui.md). The access token comes
// from the page's URL (the first load also set it as a cookie).

export class Connection {
  /** @param {(msg: object) => void} onMessage @param {(why: string) => void} onClose */
  constructor(onMessage, onClose) {
    const token = new URLSearchParams(location.search).get('token') ?? '';
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws?token=${encodeURIComponent(token)}`;
    this.ws = new WebSocket(url);
    this.queue = [];
    this.ws.addEventListener('open', () => {
      for (const m of this.queue) this.ws.send(m);
      this.queue = [];
    });
    this.ws.addEventListener('message', (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        onClose(`the server sent something that is not JSON: ${String(e.data).slice(0, 80)}`);
        return;
      }
      onMessage(msg);
    });
    this.ws.addEventListener('close', () => onClose('the connection to the server is closed; reload the page (with its token) to start again'));
  }

  send(msg) {
    const text = JSON.stringify(msg);
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(text);
    else if (this.ws.readyState === WebSocket.CONNECTING) this.queue.push(text);
  }
}
