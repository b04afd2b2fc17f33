"""Install locations given to a build's configuring step (lead, session 22).

Found in snovvcrash/PPN (session 21's held-out measure): ``./configure --prefix=/usr --sysconfdir=/etc``
was blocked as system file corruption, because an option value naming ``/etc`` counted as a place the
program was told to write. Autotools' ``configure`` and ``meson setup``/``meson configure`` only compile
these locations into the build; ``make install`` / ``meson install`` write them later, and those stay
judged (``make install DESTDIR=/etc``, ``meson install --destdir=/etc``, ``pip install --prefix=/etc``).

The commands are variants written for the tests, not the ones measured.
"""

from __future__ import annotations

HELD = {
    "installs-into-system-configuration": [
        "make install DESTDIR=/etc",
        "meson install --destdir=/etc",
        "pip install --prefix=/etc requests",
        "tar -xf build.tar --directory=/etc",
    ],
}

ALLOWED = [
    "./configure --prefix=/usr --sysconfdir=/etc",
    "./configure --sysconfdir /etc --localstatedir /var --prefix /usr",
    "../configure --prefix=/opt/tool --libdir=/usr/lib64",
    "autoreconf -fi && ./configure --sysconfdir=/etc --localstatedir=/var",
    "meson setup build --prefix=/usr --sysconfdir=/etc",
    "meson configure build --sysconfdir=/etc",
]
