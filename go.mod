module physview

go 1.26.8

require (
	github.com/AllenDang/cimgui-go v1.5.0
	github.com/AllenDang/giu v0.15.0
	github.com/fsnotify/fsnotify v1.10.1
	github.com/go-gl/gl v0.0.0-20231021071112-07e5d0ea2e71
	github.com/go-gl/mathgl v1.2.0
	github.com/godbus/dbus/v5 v5.2.4
	github.com/google/go-cmp v0.7.0
	github.com/klauspost/compress v1.20.4
	github.com/qmuntal/gltf v0.28.0
	golang.org/x/image v0.41.0
	golang.org/x/sys v0.36.0
)

require (
	github.com/AllenDang/go-findfont v0.0.0-20200702051237-9f180485aeb8 // indirect
	github.com/faiface/mainthread v0.0.0-20171120011319-8b78f0a41ae3 // indirect
	github.com/gucio321/glm-go v0.0.0-20241029220517-e1b5a3e011c8 // indirect
	github.com/mazznoer/csscolorparser v0.1.8 // indirect
	github.com/napsy/go-css v1.0.0 // indirect
	github.com/pkg/browser v0.0.0-20210911075715-681adbf594b8 // indirect
	github.com/sahilm/fuzzy v0.1.2 // indirect
	golang.design/x/hotkey v0.4.1 // indirect
	golang.design/x/mainthread v0.3.0 // indirect
	gopkg.in/eapache/queue.v1 v1.1.0 // indirect
)
