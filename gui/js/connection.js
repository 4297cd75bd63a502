// The WebSocket to the server: JSON messages both ways (docs/gui.md). The access token comes
// from the page's URL (the first load also set it as a cookie).

export class Connection {
  /** @param {(msg: object) => void} onMessage @param {(why: string) => void} onClose */
  constructor(onMessage, onClose) {
    const token = new URLSearchParams(location.search).get('token') ?? '';
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws?token=${encodeURIComponent(token)}`;
    this.ws = new WebSocket(url);
    this.queue = [];
    // The server's last message, when it is an error: the server closes with a code of
    // its own (1013: it runs as many sessions as it may; 1008: a message it cannot read)
    // right after an error that says why, which must not be replaced by a vaguer text.
    this.lastError = null;
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
      this.lastError = msg.type === 'error' ? msg.message : null;
      onMessage(msg);
    });
    this.ws.addEventListener('close', (e) => {
      const reason = [1008, 1013].includes(e.code) && this.lastError ? `${this.lastError}. ` : '';
      onClose(`${reason}The connection to the server is closed; reload the page (with its token) to start again.`);
    });
  }

  send(msg) {
    const text = JSON.stringify(msg);
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(text);
    else if (this.ws.readyState === WebSocket.CONNECTING) this.queue.push(text);
  }
}
