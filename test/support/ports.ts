/** Ports on 127.0.0.1 for test servers (code-server, PostgreSQL). */
import * as net from 'node:net';

/** A port nothing listens on right now (bound to 0, then closed). */
export async function freePort(): Promise<number> {
    return new Promise((resolve, reject) => {
        const srv = net.createServer();
        srv.once('error', reject);
        srv.listen(0, '127.0.0.1', () => {
            const port = (srv.address() as net.AddressInfo).port;
            srv.close(() => resolve(port));
        });
    });
}
