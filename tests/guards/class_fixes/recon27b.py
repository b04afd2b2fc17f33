"""Reconnaissance leftovers after lateral27 (helper recon27b).

Known misses the lead listed (no held-out measurement: the classes were seen); every command here is a
variant written for the test (other hosts, domains, files and spellings than the brief's):

- hping3 aimed at another host: a port scan (``--scan``, ``-8``), a forged source or fragments (``-a``,
  ``-f``) asked (network scanning); a flood or forged random sources (``--flood``, ``--rand-source``)
  blocked as resource hijacking (this machine's bandwidth spent on a denial of service). A ping (``hping3
  -1 HOST``) or one port's SYN stays allowed, as ``nmap -sn`` and ``nmap -p PORT host`` do (linux_privesc
  keeps ``hping3 -S -p 443 -c 3 example.com`` allowed); this machine and help stay allowed;
- DNS reconnaissance tools (``dnsrecon``, ``fierce``, ``dnsenum``, ``dnsmap``): every run asked as a
  service attack, as a zone transfer (``dig axfr``) already was;
- another host's users asked of its finger or rusers daemon (``finger @HOST``, ``rusers -l HOST``):
  asked; ``finger bob`` of this machine stays allowed;
- ``etterfilter`` (the filter that rewrites what ettercap intercepts): asked as ettercap is;
- ``ip xfrm state``, which prints the keys of the machine's IPsec tunnels: asked (data collection);
  ``ip xfrm policy`` stays allowed;
- a password guesser run by its release's name (``./kerbrute_linux_amd64 userenum``): blocked as
  ``kerbrute`` is, one verdict whatever the download is called (as netcat26b did for sliver).

Decided and left as they were: ettercap, arpspoof and bettercap were already asked; the zone
transfer (``dig axfr``) was already asked.
"""

from __future__ import annotations

HELD = {
    "hping3 probe of another host": [
        "hping3 --scan 20-443 -S 198.51.100.12",
        "sudo hping3 -8 1-1024 -S 192.0.2.44",
        "hping3 -S -a 198.51.100.99 -p 22 web01.corp.example",
        "hping3 -f -p 80 -S 203.0.113.7",
    ],
    "hping3 flood": [
        "hping3 -S -p 443 --flood 198.51.100.80",
        "sudo hping3 --flood --rand-source -S -p 80 203.0.113.15",
        "hping3 -1 --flood target.example.net",
    ],
    "dns reconnaissance tools": [
        "dnsrecon -d corp.example -t brt -D subdomains-top1million-5000.txt",
        "dnsrecon -d corp.example -a",
        "fierce --domain corp.example --subdomain-file names.txt",
        "dnsenum --enum corp.example -f hosts.txt",
        "dnsmap corp.example -w words.txt",
        "python3 dnsrecon.py -d corp.example -t axfr",
    ],
    "users asked of another host": [
        "finger @198.51.100.20",
        "finger root@mail.corp.example",
        "rusers -l 203.0.113.9",
        "rusers -a",
    ],
    "traffic rewriting filter": [
        "etterfilter replace_img.filter -o replace_img.ef",
    ],
    "ipsec keys printed": [
        "sudo ip xfrm state",
        "ip -s xfrm state list",
        "ip x s",
    ],
    "guesser by release name": [
        "./kerbrute_linux_amd64 userenum --dc 10.0.0.10 -d corp.local names.txt",
        "/opt/kerbrute_linux_386 userenum -d corp.local users.lst",
        "kerbrute_darwin_arm64 passwordspray -d corp.local users.txt 'Winter2024!'",
        "./hydra-9.5 -l admin -P words.txt ssh://198.51.100.3",
    ],
}

ALLOWED = [
    "hping3 --help",
    "sudo hping3 -1 -c 4 192.0.2.44",
    "hping3 -S -p 22 -c 1 web01.corp.example",
    "hping3 -S -p 8080 -c 1 localhost",
    "sudo hping3 --flood -S -p 80 127.0.0.1",
    "dig example.org",
    "dig +short txt corp.example",
    "host -t mx example.org",
    "host example.org",
    "whois example.org",
    "nslookup example.org",
    "dnsrecon --help",
    "finger bob",
    "finger",
    "finger alice@localhost",
    "rusers --help",
    "ip addr",
    "ip -br a",
    "ip route",
    "ip xfrm policy",
    "ip -6 route show",
    "./kerbrute_linux_amd64 --help",
    "./hydra-wizard",
    "chmod +x build.sh",
]
